// libfaketime 0.9.10 rewrites every absolute timerfd deadline as if it were on the faked
// real-time clock, even for CLOCK_MONOTONIC / CLOCK_BOOTTIME timers that FAKETIME_DONT_FAKE_MONOTONIC
// leaves unfaked (libfaketime issue #378). Swift's Task.sleep waits on such timers (libdispatch),
// so under faketime every sleep hangs. Preloaded before libfaketime, this passes timerfd calls
// to the kernel itself: monotonic and boot-time deadlines unchanged, real-time ones moved back by
// the offset between the faked and the real clock.
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define TRACKED 4096
static clockid_t clocks[TRACKED];
static char known[TRACKED];

int timerfd_create(int clockid, int flags) {
    int fd = (int)syscall(SYS_timerfd_create, clockid, flags);
    if (fd >= 0 && fd < TRACKED) {
        clocks[fd] = clockid;
        __atomic_store_n(&known[fd], 1, __ATOMIC_RELEASE);
    }
    return fd;
}

int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    struct itimerspec real = *value;
    int realtime = fd >= 0 && fd < TRACKED && __atomic_load_n(&known[fd], __ATOMIC_ACQUIRE)
        && (clocks[fd] == CLOCK_REALTIME || clocks[fd] == CLOCK_REALTIME_ALARM);
    if ((flags & TFD_TIMER_ABSTIME) && realtime
        && (real.it_value.tv_sec != 0 || real.it_value.tv_nsec != 0)) {
        struct timespec faked, actual;
        clock_gettime(CLOCK_REALTIME, &faked);            // through libfaketime
        syscall(SYS_clock_gettime, CLOCK_REALTIME, &actual);  // the kernel's
        long long shift = (long long)(faked.tv_sec - actual.tv_sec) * 1000000000LL
            + (faked.tv_nsec - actual.tv_nsec);
        long long at = (long long)real.it_value.tv_sec * 1000000000LL + real.it_value.tv_nsec - shift;
        if (at < 1) at = 1;
        real.it_value.tv_sec = at / 1000000000LL;
        real.it_value.tv_nsec = at % 1000000000LL;
    }
    return (int)syscall(SYS_timerfd_settime, fd, flags, &real, old);
}

int timerfd_gettime(int fd, struct itimerspec *current) {
    return (int)syscall(SYS_timerfd_gettime, fd, current);
}
