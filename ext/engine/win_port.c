/*
** win_port.c: the POSIX file calls of the engine on Windows (see
** win_port.h for what each one does and why).  Compiled into every build;
** empty except on Windows.
*/
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include "engine/win_port.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#undef stat
#undef fstat
#undef open
#undef rename
#undef unlink
#undef link
#undef fsync
#undef flock
#undef fcntl
#undef mkstemp
#undef mkdir
#undef pread
#undef realpath
#undef DIR
#undef dirent
#undef opendir
#undef readdir
#undef closedir

struct ls_win_dir {
  HANDLE find;
  WIN32_FIND_DATAW data;
  int have;  /* data holds an entry not yet returned */
  struct ls_win_dirent entry;
};

/* Sets errno from GetLastError() (the codes the engine tells apart) and
** returns -1. */
static int fail_with_last_error(void) {
  switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND: case ERROR_INVALID_NAME:
    case ERROR_INVALID_DRIVE: case ERROR_BAD_NETPATH: errno = ENOENT; break;
    case ERROR_ACCESS_DENIED: case ERROR_WRITE_PROTECT: case ERROR_SHARING_VIOLATION: errno = EACCES; break;
    case ERROR_FILE_EXISTS: case ERROR_ALREADY_EXISTS: errno = EEXIST; break;
    case ERROR_LOCK_VIOLATION: case ERROR_IO_PENDING: errno = EWOULDBLOCK; break;
    case ERROR_NOT_SAME_DEVICE: errno = EXDEV; break;
    case ERROR_DISK_FULL: case ERROR_HANDLE_DISK_FULL: errno = ENOSPC; break;
    case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY: errno = ENOMEM; break;
    case ERROR_DIRECTORY: errno = ENOTDIR; break;
    case ERROR_NOT_SUPPORTED: case ERROR_INVALID_FUNCTION: errno = ENOSYS; break;
    default: errno = EIO; break;
  }
  return -1;
}

/* The UTF-16 form of a UTF-8 path, malloc'ed; NULL (errno set) when it is
** not UTF-8 or memory is short. */
static wchar_t *wide_path(const char *path) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
  wchar_t *w;
  if (n <= 0) {
    errno = ENOENT;
    return NULL;
  }
  if (!(w = malloc(sizeof(wchar_t) * (size_t)n))) {
    errno = ENOMEM;
    return NULL;
  }
  MultiByteToWideChar(CP_UTF8, 0, path, -1, w, n);
  return w;
}

/* The UTF-8 form of a UTF-16 string, malloc'ed, or NULL. */
static char *utf8_of(const wchar_t *w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  char *s;
  if (n <= 0 || !(s = malloc((size_t)n))) {
    errno = ENOMEM;
    return NULL;
  }
  WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  return s;
}

/* A FILETIME (100 ns since 1601) as seconds and nanoseconds since 1970. */
static struct timespec unix_time_of(FILETIME ft) {
  struct timespec ts;
  uint64_t t = ((uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime) - 116444736000000000ULL;
  ts.tv_sec = (time_t)(t / 10000000);
  ts.tv_nsec = (long)(t % 10000000) * 100;
  return ts;
}

/* Fills st from an open handle. */
static int stat_of_handle(HANDLE h, struct ls_win_stat *st) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(h, &info)) return fail_with_last_error();
  memset(st, 0, sizeof *st);
  st->st_dev = info.dwVolumeSerialNumber;
  st->st_ino = (uint64_t)info.nFileIndexHigh << 32 | info.nFileIndexLow;
  st->st_nlink = info.nNumberOfLinks;
  st->st_size = (int64_t)((uint64_t)info.nFileSizeHigh << 32 | info.nFileSizeLow);
  st->st_mtim = unix_time_of(info.ftLastWriteTime);
  st->st_mode = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? (S_IFDIR | 0755)
              : (S_IFREG | ((info.dwFileAttributes & FILE_ATTRIBUTE_READONLY) ? 0444 : 0666));
  return 0;
}

/* Opens path for its attributes only (folders too), sharing everything. */
static HANDLE open_for_info(const wchar_t *w) {
  return CreateFileW(w, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                     OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
}

int ls_win_stat(const char *path, struct ls_win_stat *st) {
  wchar_t *w = wide_path(path);
  HANDLE h;
  int rc;
  if (!w) return -1;
  h = open_for_info(w);
  free(w);
  if (h == INVALID_HANDLE_VALUE) return fail_with_last_error();
  rc = stat_of_handle(h, st);
  CloseHandle(h);
  return rc;
}

int ls_win_fstat(int fd, struct ls_win_stat *st) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  return stat_of_handle(h, st);
}

/* open(2) on CreateFileW: O_RDONLY/O_WRONLY/O_RDWR, O_CREAT, O_EXCL,
** O_TRUNC, O_DIRECTORY (a folder, for its attributes); the mode's write
** bit missing makes a read-only file.  Binary, not inherited. */
int ls_win_open(const char *path, int flags, ...) {
  DWORD access, disposition, attributes = FILE_ATTRIBUTE_NORMAL;
  wchar_t *w;
  HANDLE h;
  int fd, mode = 0666, crt_flags = _O_BINARY | _O_NOINHERIT;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
  }
  switch (flags & (O_RDONLY | O_WRONLY | O_RDWR)) {
    case O_WRONLY: access = GENERIC_WRITE; break;
    case O_RDWR: access = GENERIC_READ | GENERIC_WRITE; break;
    default: access = GENERIC_READ; crt_flags |= _O_RDONLY; break;
  }
  if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) disposition = CREATE_NEW;
  else if (flags & O_CREAT) disposition = (flags & O_TRUNC) ? CREATE_ALWAYS : OPEN_ALWAYS;
  else disposition = (flags & O_TRUNC) ? TRUNCATE_EXISTING : OPEN_EXISTING;
  if ((flags & O_CREAT) && !(mode & 0200)) attributes = FILE_ATTRIBUTE_READONLY;
  if (flags & O_DIRECTORY) {
    access = FILE_READ_ATTRIBUTES;
    attributes = FILE_FLAG_BACKUP_SEMANTICS;
  }
  if (!(w = wide_path(path))) return -1;
  h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, disposition,
                  attributes, NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) return fail_with_last_error();
  if ((fd = _open_osfhandle((intptr_t)h, crt_flags)) < 0) {
    CloseHandle(h);
    errno = EMFILE;
  }
  return fd;
}

/* Runs f on the wide forms of a and b. */
static int on_two_paths(const char *a, const char *b, BOOL (*f)(const wchar_t *, const wchar_t *)) {
  wchar_t *wa = wide_path(a), *wb = wa ? wide_path(b) : NULL;
  BOOL ok = wa && wb && f(wa, wb);
  DWORD e = GetLastError();
  int missing = !wa || !wb;
  free(wa);
  free(wb);
  if (missing) return -1;
  SetLastError(e);
  return ok ? 0 : fail_with_last_error();
}

static BOOL move_replacing(const wchar_t *from, const wchar_t *to) {
  return MoveFileExW(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
}

static BOOL hard_link(const wchar_t *existing, const wchar_t *new_name) {
  return CreateHardLinkW(new_name, existing, NULL);
}

int ls_win_rename(const char *from, const char *to) { return on_two_paths(from, to, move_replacing); }

int ls_win_link(const char *existing, const char *new_name) { return on_two_paths(existing, new_name, hard_link); }

int ls_win_unlink(const char *path) {
  wchar_t *w = wide_path(path);
  BOOL ok;
  if (!w) return -1;
  ok = DeleteFileW(w);
  free(w);
  return ok ? 0 : fail_with_last_error();
}

int ls_win_mkdir(const char *path, int mode) {
  wchar_t *w = wide_path(path);
  BOOL ok;
  (void)mode; /* (Windows has no POSIX modes: a new folder is writable) */
  if (!w) return -1;
  ok = CreateDirectoryW(w, NULL);
  free(w);
  return ok ? 0 : fail_with_last_error();
}

int ls_win_fsync(int fd) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  return FlushFileBuffers(h) ? 0 : fail_with_last_error();
}

/* The byte that flock locks: far past any level file's end. */
#define LOCK_OFFSET_HIGH 0x7FFFFFFFu

int ls_win_flock(int fd, int op) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  OVERLAPPED at;
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  memset(&at, 0, sizeof at);
  at.OffsetHigh = LOCK_OFFSET_HIGH;
  if (op & LOCK_UN) return UnlockFileEx(h, 0, 1, 0, &at) ? 0 : fail_with_last_error();
  if (LockFileEx(h, ((op & LOCK_EX) ? LOCKFILE_EXCLUSIVE_LOCK : 0) | ((op & LOCK_NB) ? LOCKFILE_FAIL_IMMEDIATELY : 0),
                 0, 1, 0, &at)) {
    return 0;
  }
  fail_with_last_error();
  if (errno == EACCES || errno == EIO) errno = EWOULDBLOCK;
  return -1;
}

/* fcntl: F_SETFD FD_CLOEXEC (nothing to do: not inherited) and
** F_DUPFD_CLOEXEC (a duplicate). */
int ls_win_fcntl(int fd, int cmd, ...) {
  if (cmd == F_SETFD) return 0;
  if (cmd == F_DUPFD_CLOEXEC) return _dup(fd);
  errno = EINVAL;
  return -1;
}

/* mkstemp: the trailing XXXXXX replaced with letters and digits until
** O_EXCL creates a new file. */
int ls_win_mkstemp(char *pattern) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  size_t n = strlen(pattern);
  LARGE_INTEGER now;
  uint64_t seed;
  int tries, i;
  if (n < 6 || strcmp(pattern + n - 6, "XXXXXX") != 0) {
    errno = EINVAL;
    return -1;
  }
  QueryPerformanceCounter(&now);
  seed = (uint64_t)now.QuadPart ^ ((uint64_t)GetCurrentProcessId() << 32) ^ (uintptr_t)pattern;
  for (tries = 0; tries < 1000; tries++) {
    int fd;
    for (i = 0; i < 6; i++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      pattern[n - 6 + i] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
    }
    fd = ls_win_open(pattern, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

ssize_t ls_win_pread(int fd, void *buf, size_t n, off_t offset) {
  HANDLE h = (HANDLE)_get_osfhandle(fd);
  OVERLAPPED at;
  DWORD got = 0;
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  memset(&at, 0, sizeof at);
  at.Offset = (DWORD)((uint64_t)offset & 0xFFFFFFFFu);
  at.OffsetHigh = (DWORD)((uint64_t)offset >> 32);
  if (n > 0x40000000) n = 0x40000000;
  if (!ReadFile(h, buf, (DWORD)n, &got, &at)) {
    if (GetLastError() == ERROR_HANDLE_EOF) return 0;
    return fail_with_last_error();
  }
  return (ssize_t)got;
}

/* realpath(path, NULL): the final path of an existing file or folder
** (links and 8.3 names resolved, the letters' case as on disk), without
** the \\?\ prefix and with '/' between names; malloc'ed. */
char *ls_win_realpath(const char *path, char *unused) {
  wchar_t *w = wide_path(path), *final = NULL, *p;
  HANDLE h;
  DWORD n;
  char *out = NULL;
  (void)unused;
  if (!w) return NULL;
  h = open_for_info(w);
  free(w);
  if (h == INVALID_HANDLE_VALUE) {
    fail_with_last_error();
    return NULL;
  }
  n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  if (n > 0 && (final = malloc(sizeof(wchar_t) * (n + 1))) != NULL &&
      GetFinalPathNameByHandleW(h, final, n + 1, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS) > 0) {
    p = final;
    if (wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
      p += 6;
      *p = L'\\'; /* \\server\share */
    } else if (wcsncmp(p, L"\\\\?\\", 4) == 0) {
      p += 4;
    }
    if ((out = utf8_of(p)) != NULL) {
      char *c;
      for (c = out; *c; c++) {
        if (*c == '\\') *c = '/';
      }
    }
  } else if (!final) {
    errno = ENOMEM;
  } else {
    fail_with_last_error();
  }
  free(final);
  CloseHandle(h);
  return out;
}

ls_win_dir *ls_win_opendir(const char *path) {
  size_t n = strlen(path);
  char *pattern = malloc(n + 3);
  wchar_t *w;
  ls_win_dir *d;
  if (!pattern) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(pattern, path, n);
  if (n > 0 && path[n - 1] != '/' && path[n - 1] != '\\') pattern[n++] = '/';
  pattern[n++] = '*';
  pattern[n] = 0;
  w = wide_path(pattern);
  free(pattern);
  if (!w) return NULL;
  if (!(d = calloc(1, sizeof *d))) {
    free(w);
    errno = ENOMEM;
    return NULL;
  }
  d->find = FindFirstFileW(w, &d->data);
  free(w);
  if (d->find == INVALID_HANDLE_VALUE) {
    DWORD e = GetLastError();
    free(d);
    if (e == ERROR_FILE_NOT_FOUND) SetLastError(ERROR_PATH_NOT_FOUND);
    fail_with_last_error();
    return NULL;
  }
  d->have = 1;
  return d;
}

struct ls_win_dirent *ls_win_readdir(ls_win_dir *d) {
  while (d->have || FindNextFileW(d->find, &d->data)) {
    int n;
    d->have = 0;
    n = WideCharToMultiByte(CP_UTF8, 0, d->data.cFileName, -1, d->entry.d_name, (int)sizeof d->entry.d_name, NULL,
                            NULL);
    if (n > 0) return &d->entry;
  }
  return NULL;
}

int ls_win_closedir(ls_win_dir *d) {
  FindClose(d->find);
  free(d);
  return 0;
}

#else
/* (not Windows: the POSIX calls are the system's) */
typedef int ls_win_port_unused;
#endif
