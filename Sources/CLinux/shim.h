/* Linux calls that glibc declares only under _GNU_SOURCE, which the Swift Glibc module is not
   built with. Declarations only: the symbols come from libc itself. */
#ifndef MOTIONSCRIPT_CLINUX_SHIM_H
#define MOTIONSCRIPT_CLINUX_SHIM_H
#include <poll.h>
#include <signal.h>
#include <time.h>

/* poll with a timeout in nanoseconds: the live clock's deadlines are not whole milliseconds. */
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

#endif
