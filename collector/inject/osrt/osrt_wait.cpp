// OS-runtime wrappers for sleeps, waits on file descriptors (poll, select, epoll) and sockets.
#include "collector/inject/osrt/osrt_timed.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

using namespace sightline::inject::osrt;

#define SIGHTLINE_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" int __poll_chk(struct pollfd* fds, nfds_t count, int timeout, size_t fdsBytes);

namespace {

RealFunction<decltype(sleep)> realSleep {"sleep"};
RealFunction<decltype(usleep)> realUsleep {"usleep"};
RealFunction<decltype(nanosleep)> realNanosleep {"nanosleep"};
RealFunction<decltype(clock_nanosleep)> realClockNanosleep {"clock_nanosleep"};
RealFunction<decltype(poll)> realPoll {"poll"};
RealFunction<decltype(__poll_chk)> realPollChk {"__poll_chk"};
RealFunction<decltype(ppoll)> realPpoll {"ppoll"};
RealFunction<decltype(select)> realSelect {"select"};
RealFunction<decltype(pselect)> realPselect {"pselect"};
RealFunction<decltype(epoll_wait)> realEpollWait {"epoll_wait"};
RealFunction<decltype(epoll_pwait)> realEpollPwait {"epoll_pwait"};
RealFunction<decltype(connect)> realConnect {"connect"};
RealFunction<decltype(accept)> realAccept {"accept"};
RealFunction<decltype(accept4)> realAccept4 {"accept4"};
RealFunction<decltype(send)> realSend {"send"};
RealFunction<decltype(sendto)> realSendto {"sendto"};
RealFunction<decltype(sendmsg)> realSendmsg {"sendmsg"};
RealFunction<decltype(recv)> realRecv {"recv"};
RealFunction<decltype(recvfrom)> realRecvfrom {"recvfrom"};
RealFunction<decltype(recvmsg)> realRecvmsg {"recvmsg"};

} // namespace

SIGHTLINE_EXPORT unsigned int sleep(unsigned int seconds)
{
    return timed(OsFunction::sleep, realSleep.get(), seconds);
}

SIGHTLINE_EXPORT int usleep(useconds_t microseconds)
{
    return timed(OsFunction::usleep, realUsleep.get(), microseconds);
}

SIGHTLINE_EXPORT int nanosleep(const struct timespec* duration, struct timespec* remaining)
{
    return timed(OsFunction::nanosleep, realNanosleep.get(), duration, remaining);
}

SIGHTLINE_EXPORT int clock_nanosleep(
    clockid_t clock, int flags, const struct timespec* duration, struct timespec* remaining)
{
    return timed(OsFunction::clock_nanosleep, realClockNanosleep.get(), clock, flags, duration, remaining);
}

SIGHTLINE_EXPORT int poll(struct pollfd* fds, nfds_t count, int timeout)
{
    return timed(OsFunction::poll, realPoll.get(), fds, count, timeout);
}

SIGHTLINE_EXPORT int __poll_chk(struct pollfd* fds, nfds_t count, int timeout, size_t fdsBytes)
{
    return timed(OsFunction::poll, realPollChk.get(), fds, count, timeout, fdsBytes);
}

SIGHTLINE_EXPORT int ppoll(
    struct pollfd* fds, nfds_t count, const struct timespec* timeout, const sigset_t* mask)
{
    return timed(OsFunction::ppoll, realPpoll.get(), fds, count, timeout, mask);
}

SIGHTLINE_EXPORT int select(
    int count, fd_set* readable, fd_set* writable, fd_set* failed, struct timeval* timeout)
{
    return timed(OsFunction::select, realSelect.get(), count, readable, writable, failed, timeout);
}

SIGHTLINE_EXPORT int pselect(int count, fd_set* readable, fd_set* writable, fd_set* failed,
    const struct timespec* timeout, const sigset_t* mask)
{
    return timed(OsFunction::pselect, realPselect.get(), count, readable, writable, failed, timeout, mask);
}

SIGHTLINE_EXPORT int epoll_wait(int epfd, struct epoll_event* events, int maxEvents, int timeout)
{
    return timed(OsFunction::epoll_wait, realEpollWait.get(), epfd, events, maxEvents, timeout);
}

SIGHTLINE_EXPORT int epoll_pwait(
    int epfd, struct epoll_event* events, int maxEvents, int timeout, const sigset_t* mask)
{
    return timed(OsFunction::epoll_pwait, realEpollPwait.get(), epfd, events, maxEvents, timeout, mask);
}

SIGHTLINE_EXPORT int connect(int fd, const struct sockaddr* address, socklen_t length)
{
    return timed(OsFunction::connect, realConnect.get(), fd, address, length);
}

SIGHTLINE_EXPORT int accept(int fd, struct sockaddr* address, socklen_t* length)
{
    return timed(OsFunction::accept, realAccept.get(), fd, address, length);
}

SIGHTLINE_EXPORT int accept4(int fd, struct sockaddr* address, socklen_t* length, int flags)
{
    return timed(OsFunction::accept4, realAccept4.get(), fd, address, length, flags);
}

SIGHTLINE_EXPORT ssize_t send(int fd, const void* buffer, size_t length, int flags)
{
    return timed(OsFunction::send, realSend.get(), fd, buffer, length, flags);
}

SIGHTLINE_EXPORT ssize_t sendto(
    int fd, const void* buffer, size_t length, int flags, const struct sockaddr* to, socklen_t toLength)
{
    return timed(OsFunction::sendto, realSendto.get(), fd, buffer, length, flags, to, toLength);
}

SIGHTLINE_EXPORT ssize_t sendmsg(int fd, const struct msghdr* message, int flags)
{
    return timed(OsFunction::sendmsg, realSendmsg.get(), fd, message, flags);
}

SIGHTLINE_EXPORT ssize_t recv(int fd, void* buffer, size_t length, int flags)
{
    return timed(OsFunction::recv, realRecv.get(), fd, buffer, length, flags);
}

SIGHTLINE_EXPORT ssize_t recvfrom(
    int fd, void* buffer, size_t length, int flags, struct sockaddr* from, socklen_t* fromLength)
{
    return timed(OsFunction::recvfrom, realRecvfrom.get(), fd, buffer, length, flags, from, fromLength);
}

SIGHTLINE_EXPORT ssize_t recvmsg(int fd, struct msghdr* message, int flags)
{
    return timed(OsFunction::recvmsg, realRecvmsg.get(), fd, message, flags);
}
