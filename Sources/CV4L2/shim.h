#ifndef CAMCAST_CV4L2_SHIM_H
#define CAMCAST_CV4L2_SHIM_H
#include <fcntl.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <unistd.h>

// The VIDIOC_* request codes are function-like macros (_IOWR(...)), which Swift cannot expand, so
// each gets a function returning it.
static inline unsigned long cv4l2_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long cv4l2_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long cv4l2_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long cv4l2_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long cv4l2_vidioc_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long cv4l2_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long cv4l2_vidioc_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long cv4l2_vidioc_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long cv4l2_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long cv4l2_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long cv4l2_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long cv4l2_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long cv4l2_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long cv4l2_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long cv4l2_vidioc_g_input(void) { return VIDIOC_G_INPUT; }
static inline unsigned long cv4l2_vidioc_enuminput(void) { return VIDIOC_ENUMINPUT; }

// The kernel interface itself. Capture deliberately does not use libv4l2: it would convert
// formats in software behind our back (hiding what the driver grants and costing CPU the encoder
// needs) and its plugin dresses multi-planar devices up as single-planar. `open` and `ioctl` are
// variadic in C, so they need fixed-signature wrappers too.
static inline int cv4l2_sys_open(const char *path, int flags) { return open(path, flags); }
static inline int cv4l2_sys_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline void *cv4l2_sys_mmap(int fd, size_t length, off_t offset) {
    return mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
}
static inline int cv4l2_sys_munmap(void *address, size_t length) { return munmap(address, length); }
static inline int cv4l2_map_failed(const void *address) { return address == MAP_FAILED; }

#endif
