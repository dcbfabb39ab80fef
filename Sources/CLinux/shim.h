/* Linux calls that glibc declares only under _GNU_SOURCE, which the Swift Glibc module is not
   built with. Declarations only: the symbols come from libc itself. */
#ifndef MOTIONSCRIPT_CLINUX_SHIM_H
#define MOTIONSCRIPT_CLINUX_SHIM_H
#include <poll.h>
#include <signal.h>
#include <time.h>
/* timerfd_create(2): the watchdog's thread sleeps on one, so a pending look can be moved or
   cancelled by another thread without waking it. */
#include <sys/timerfd.h>
/* statfs(2): the filesystem of a watched folder (inotify misses changes on NFS, SMB, 9p, FUSE). */
#include <sys/vfs.h>

/* pipe2(2) with O_CLOEXEC: a pipe whose ends are close-on-exec from the start. pipe() and then
   fcntl() leaves a moment in which a child another thread spawns keeps a copy of an end. */
#include <fcntl.h>
int pipe2(int pipefd[2], int flags);

/* epoll(7): the input hub's one wait (ReadySet), on the kernel's ready list; epoll_pwait2
   (Linux 5.11) takes its timeout in nanoseconds. */
#include <sys/epoll.h>

/* eventfd(2): other threads wake the event loop's wait (LoopMailbox) without a pipe's two ends. */
#include <sys/eventfd.h>

/* poll with a timeout in nanoseconds: the live clock's deadlines are not whole milliseconds. */
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

/* pidfd_open(2) (Linux 5.3), which glibc wraps only from 2.36: a descriptor that polls readable
   when the child exits, so one thread can wait for every launched command. -1 with errno
   ENOSYS on older kernels. */
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
long syscall(long number, ...);
static inline int ms_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return (int)syscall(434, pid, 0);
#endif
}

/* gettid(2) (glibc 2.30): the kernel's id of the calling thread, its /proc/self/task entry. */
pid_t gettid(void);

/* The calling thread's timer slack (prctl(2), variadic: Swift imports no variadic function):
   the watchdog's thread wakes at a time limit on time, not up to 50 µs later. */
#include <sys/prctl.h>
int prctl(int option, ...);
static inline int ms_settimerslack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

#endif
