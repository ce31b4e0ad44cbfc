#ifndef CAMCAST_CEVENTFD_SHIM_H
#define CAMCAST_CEVENTFD_SHIM_H
// ppoll(2) is declared by <poll.h> only under _GNU_SOURCE, and Glibc's Swift module exports neither
// it nor <sys/eventfd.h>: this header-only shim is how Media reaches both. Nothing is linked.
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>

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

#endif
