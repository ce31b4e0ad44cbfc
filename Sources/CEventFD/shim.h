#ifndef CAMCAST_CEVENTFD_SHIM_H
#define CAMCAST_CEVENTFD_SHIM_H
// ppoll(2) is declared by <poll.h> only under _GNU_SOURCE, and Glibc's Swift module exports neither
// it nor <sys/eventfd.h> nor <sys/timerfd.h>: this header-only shim is how Media reaches them (the
// C library's one shim; WakeEvent and WallClockAlarm use it). Nothing is linked.
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <errno.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

// A non-blocking counter fd that closes on exec: −1 with errno on failure.
static inline int ceventfd_open(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

// Adds one to the counter: the fd polls readable until `ceventfd_drain`. A counter already at its
// maximum (2^64 − 2 signals, never) fails with EAGAIN and stays readable, which is all a signal means.
static inline void ceventfd_signal(int fd) { (void)eventfd_write(fd, 1); }

// Sets the counter back to zero (one read takes it all; EAGAIN when it already was).
static inline void ceventfd_drain(int fd) {
    eventfd_t value;
    (void)eventfd_read(fd, &value);
}

// Waits until the fd is readable or `timeout_ns` nanoseconds have passed (negative: without end).
// ppoll's timeout is a timespec, so a frame deadline is kept to the nanosecond where poll(2) would
// round it to a millisecond. Returns 1 when readable, 0 at the timeout, −1 with errno (EINTR).
static inline int ceventfd_wait(int fd, int64_t timeout_ns) {
    struct pollfd request = { .fd = fd, .events = POLLIN, .revents = 0 };
    if (timeout_ns < 0) return ppoll(&request, 1, NULL, NULL);
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000 };
    return ppoll(&request, 1, &timeout, NULL);
}

// A timer on the wall clock (CLOCK_REALTIME), non-blocking, closed on exec: −1 with errno on failure.
static inline int ctimerfd_open_wall_clock(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

// Arms it to expire when the wall clock reads `seconds` since 1970 (absolute: a step forward past
// it expires it at once), and to be cancelled — read fails with ECANCELED — when the wall clock is
// set (settimeofday, clock_settime, NTP's step, a resume), which a step backward needs.
// 0, or −1 with errno.
static inline int ctimerfd_arm_at(int fd, int64_t seconds) {
    struct itimerspec when = { .it_interval = { 0, 0 }, .it_value = { .tv_sec = seconds, .tv_nsec = 0 } };
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &when, NULL);
}

// After the timer polled readable: 1 when it expired, 2 when the wall clock was set (ECANCELED),
// 0 when nothing is there after all (EAGAIN), −1 with errno otherwise.
static inline int ctimerfd_read(int fd) {
    uint64_t expirations = 0;
    if (read(fd, &expirations, sizeof expirations) == (ssize_t)sizeof expirations) return 1;
    if (errno == ECANCELED) return 2;
    if (errno == EAGAIN) return 0;
    return -1;
}

// Waits until `timer` or `event` is readable or `timeout_ns` have passed (negative: without end).
// Returns a bit set — 1: the timer, 2: the event — 0 at the timeout, −1 with errno (EINTR).
static inline int ctimerfd_wait(int timer, int event, int64_t timeout_ns) {
    struct pollfd requests[2] = {
        { .fd = timer, .events = POLLIN, .revents = 0 },
        { .fd = event, .events = POLLIN, .revents = 0 },
    };
    struct timespec timeout = { .tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000 };
    int ready = ppoll(requests, 2, timeout_ns < 0 ? NULL : &timeout, NULL);
    if (ready <= 0) return ready;
    return (requests[0].revents ? 1 : 0) | (requests[1].revents ? 2 : 0);
}

// The wall clock's whole seconds since 1970.
static inline int64_t cwall_clock_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec;
}

#endif
