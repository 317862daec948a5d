/*
 * The guest writes each frame with one write(): the virtio console driver hands a write of up to its buffer
 * size to the host as one unit, so frames never interleave and a reader never sees half a header.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "proto.h"

int frame_send(int fd, int type, const void *payload, size_t len) {
    static unsigned char out[5 + GUEST_MAX_PAYLOAD];
    if (len > GUEST_MAX_PAYLOAD) return -1;
    out[0] = (unsigned char)type;
    out[1] = (unsigned char)(len >> 24);
    out[2] = (unsigned char)(len >> 16);
    out[3] = (unsigned char)(len >> 8);
    out[4] = (unsigned char)len;
    if (len) memcpy(out + 5, payload, len);
    size_t done = 0;
    while (done < len + 5) { /* a short write is possible only when the port buffer is smaller */
        ssize_t w = write(fd, out + done, len + 5 - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        done += (size_t)w;
    }
    return 0;
}

int frame_sendf(int fd, int type, const char *fmt, ...) {
    char text[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    return frame_send(fd, type, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

long frame_fill(struct frame_reader *r, int fd) {
    if (r->cap - r->len < 65536) {
        size_t cap = r->cap ? r->cap * 2 : 131072;
        unsigned char *b = realloc(r->buf, cap);
        if (!b) {
            errno = ENOMEM;
            return -1;
        }
        r->buf = b;
        r->cap = cap;
    }
    ssize_t n = read(fd, r->buf + r->len, r->cap - r->len);
    if (n > 0) r->len += (size_t)n;
    return (long)n;
}

int frame_next(struct frame_reader *r, int *type, unsigned char **payload, size_t *len) {
    if (r->len < 5) return 0;
    size_t n = (size_t)r->buf[1] << 24 | (size_t)r->buf[2] << 16 | (size_t)r->buf[3] << 8 | r->buf[4];
    if (n > HOST_MAX_PAYLOAD) return -1;
    if (r->len < 5 + n) return 0;
    *type = r->buf[0];
    *payload = r->buf + 5;
    *len = n;
    return 1;
}

void frame_consume(struct frame_reader *r, size_t len) {
    size_t used = 5 + len;
    memmove(r->buf, r->buf + used, r->len - used);
    r->len -= used;
}
