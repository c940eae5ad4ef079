/*
** faultshim.c: an LD_PRELOAD library that makes the Nth call of one kind
** fail with a chosen errno, for the write-safety tests
** (test/unit/test_write_safety.c).  Built by the Makefile into
** $(BUILD)/faultshim.so, without sanitizers (under `make asan` the test
** preloads the ASan runtime before it).
**
** Environment:
**   FAULTSHIM_CALL   write | fsync | dirfsync | close | rename | mkstemp |
**                    link: which calls are counted (fsync and fdatasync of
**                    a folder are "dirfsync", of a file "fsync"; mkstemp
**                    and mkostemp are intercepted themselves: glibc opens
**                    the file through an internal call no shim can see)
**   FAULTSHIM_NTH    which of them fails (1: the first)
**   FAULTSHIM_ERRNO  EIO, ENOSPC, EDQUOT, EPERM or EROFS
**   FAULTSHIM_KILL   1: the Nth call kills the process (SIGKILL) instead;
**                    with FAULTSHIM_CALL=any every kind counts (and
**                    unlink): a crash at any step of a commit
** Nothing is counted until the program calls faultshim_arm(1) (found with
** dlsym), so only the calls of the statement under test count;
** faultshim_fired() says whether the fault happened, faultshim_count()
** how many calls were counted.  A failed close still
** closes the descriptor, as Linux does.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { C_NONE, C_WRITE, C_FSYNC, C_DIRFSYNC, C_CLOSE, C_RENAME, C_MKSTEMP, C_LINK, C_UNLINK, C_ANY };

static int armed, which = -1, nth, fault_errno = EIO, count, fired, kill_instead;

static void configure(void) {
  static const char *const names[] = {"",        "write", "fsync",  "dirfsync", "close",
                                      "rename", "mkstemp", "link", "unlink",   "any"};
  static const struct {
    const char *name;
    int value;
  } errnos[] = {{"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EDQUOT", EDQUOT}, {"EPERM", EPERM}, {"EROFS", EROFS}};
  const char *call = getenv("FAULTSHIM_CALL"), *n = getenv("FAULTSHIM_NTH"), *e = getenv("FAULTSHIM_ERRNO");
  unsigned i;
  which = C_NONE;
  for (i = 1; call && i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(call, names[i]) == 0) which = (int)i;
  }
  nth = n ? atoi(n) : 0;
  kill_instead = getenv("FAULTSHIM_KILL") && atoi(getenv("FAULTSHIM_KILL")) == 1;
  for (i = 0; e && i < sizeof errnos / sizeof errnos[0]; i++) {
    if (strcmp(e, errnos[i].name) == 0) fault_errno = errnos[i].value;
  }
}

void faultshim_arm(int on) {
  if (which < 0) configure();
  armed = on;
  if (on) {
    count = 0;
    fired = 0;
  }
}

int faultshim_fired(void) {
  return fired;
}

int faultshim_count(void) {
  return count;
}

/* Does this call, of kind k, fail?  Sets errno when it does. */
static int fails(int k) {
  if (!armed || (k != which && which != C_ANY) || fired) return 0;
  if (++count != nth) return 0;
  if (kill_instead) raise(SIGKILL);
  fired = 1;
  errno = fault_errno;
  return 1;
}

#define REAL(ret, name, ...)                                   \
  static ret (*real)(__VA_ARGS__);                             \
  if (!real) real = (ret(*)(__VA_ARGS__))dlsym(RTLD_NEXT, name)

ssize_t write(int fd, const void *buf, size_t n) {
  REAL(ssize_t, "write", int, const void *, size_t);
  if (fails(C_WRITE)) return -1;
  return real(fd, buf, n);
}

static int is_dir_fd(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

int fsync(int fd) {
  REAL(int, "fsync", int);
  if (fails(is_dir_fd(fd) ? C_DIRFSYNC : C_FSYNC)) return -1;
  return real(fd);
}

int fdatasync(int fd) {
  REAL(int, "fdatasync", int);
  if (fails(is_dir_fd(fd) ? C_DIRFSYNC : C_FSYNC)) return -1;
  return real(fd);
}

int close(int fd) {
  REAL(int, "close", int);
  if (fails(C_CLOSE)) {
    int e = errno;
    real(fd);
    errno = e;
    return -1;
  }
  return real(fd);
}

int rename(const char *from, const char *to) {
  REAL(int, "rename", const char *, const char *);
  if (fails(C_RENAME)) return -1;
  return real(from, to);
}

int link(const char *from, const char *to) {
  REAL(int, "link", const char *, const char *);
  if (fails(C_LINK)) return -1;
  return real(from, to);
}

int mkstemp(char *tmpl) {
  REAL(int, "mkstemp", char *);
  if (fails(C_MKSTEMP)) return -1;
  return real(tmpl);
}

int mkostemp(char *tmpl, int flags) {
  REAL(int, "mkostemp", char *, int);
  if (fails(C_MKSTEMP)) return -1;
  return real(tmpl, flags);
}

int unlink(const char *path) {
  REAL(int, "unlink", const char *);
  if (fails(C_UNLINK)) return -1;
  return real(path);
}
