/*
** win_port.h: the POSIX file calls of the engine (commit.c, session.c,
** source.c) on Windows, for `make windows` (README, "Platforms and hosts").
** Included by commit.h, so by every file that touches the disk; on other
** systems it is empty.
**
** Each call keeps its POSIX meaning, built on Win32 (win_port.c):
**  - paths are UTF-8 (as SQLite passes them) and converted to UTF-16 for
**    the W functions; '\' and '/' both separate, drive letters are kept;
**    realpath() gives the final path with '/' ("C:/levels/a.wwd");
**  - files are opened with CreateFileW sharing read, write AND delete, so
**    that a file another connection holds open can still be replaced or
**    removed, as on POSIX; always binary;
**  - stat() fills the file identity (volume serial, 64-bit file index),
**    link count and a 100 ns modification time;
**  - rename() is MoveFileExW(MOVEFILE_REPLACE_EXISTING |
**    MOVEFILE_WRITE_THROUGH), link() CreateHardLinkW, fsync()
**    FlushFileBuffers;
**  - flock() is LockFileEx on one byte far past the end of the file (the
**    bytes of the file stay readable by everyone, as under an advisory
**    lock; SQLite's Windows VFS locks the same way);
**  - opendir()/readdir() list with FindFirstFileW, names in UTF-8;
**  - mkstemp() creates with O_EXCL through the same open; mkdir() is
**    CreateDirectoryW (the mode is ignored: a new folder is writable).
** Folders are not flushed on Windows (commit.c): NTFS journals its names.
*/
#ifndef LEVELSQL_WIN_PORT_H
#define LEVELSQL_WIN_PORT_H
#ifdef _WIN32

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* What struct stat holds on POSIX, as far as the engine reads it. */
struct ls_win_stat {
  uint64_t st_dev;   /* volume serial number */
  uint64_t st_ino;   /* file index on the volume */
  unsigned st_mode;  /* S_IFREG / S_IFDIR | 0666 or 0444 (read-only) */
  unsigned st_nlink;
  unsigned st_uid, st_gid; /* always 0 */
  int64_t st_size;
  struct timespec st_mtim;
};

/* One folder listing (opendir). */
struct ls_win_dirent {
  char d_name[1024]; /* UTF-8 */
};
typedef struct ls_win_dir ls_win_dir;

int ls_win_stat(const char *path, struct ls_win_stat *st);
int ls_win_fstat(int fd, struct ls_win_stat *st);
int ls_win_open(const char *path, int flags, ...);
int ls_win_rename(const char *from, const char *to);
int ls_win_unlink(const char *path);
int ls_win_link(const char *existing, const char *new_name);
int ls_win_fsync(int fd);
int ls_win_flock(int fd, int op);
int ls_win_fcntl(int fd, int cmd, ...);
int ls_win_mkstemp(char *pattern);
int ls_win_mkdir(const char *path, int mode);
ssize_t ls_win_pread(int fd, void *buf, size_t n, off_t offset);
char *ls_win_realpath(const char *path, char *unused);
ls_win_dir *ls_win_opendir(const char *path);
struct ls_win_dirent *ls_win_readdir(ls_win_dir *d);
int ls_win_closedir(ls_win_dir *d);

/* the engine's POSIX names, to the above */
#define stat ls_win_stat
#define fstat ls_win_fstat
#define lstat ls_win_stat
#define open ls_win_open
#define rename ls_win_rename
#define unlink ls_win_unlink
#define link ls_win_link
#define fsync ls_win_fsync
#define flock ls_win_flock
#define fcntl ls_win_fcntl
#define mkstemp ls_win_mkstemp
#define mkdir ls_win_mkdir
#define pread ls_win_pread
#define realpath ls_win_realpath
#define DIR ls_win_dir
#define dirent ls_win_dirent
#define opendir ls_win_opendir
#define readdir ls_win_readdir
#define closedir ls_win_closedir
#define fchmod(fd, mode) ((void)(fd), (void)(mode), 0) /* modes are POSIX's: a new file is writable */
#define fchown(fd, uid, gid) ((void)(fd), (void)(uid), (void)(gid), 0)
#define dev_t uint64_t
#define ino_t uint64_t

#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define F_SETFD 2
#define FD_CLOEXEC 1
#define F_DUPFD_CLOEXEC 1030
#define O_CLOEXEC 0  /* handles are opened not inheritable */
#define O_NONBLOCK 0
#define O_NOFOLLOW 0
#define O_DIRECTORY 0x10000000
#ifndef EWOULDBLOCK
#define EWOULDBLOCK EAGAIN
#endif

#endif /* _WIN32 */
#endif /* LEVELSQL_WIN_PORT_H */
