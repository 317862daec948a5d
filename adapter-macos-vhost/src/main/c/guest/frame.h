/* Frames on the control port (proto.h): writing one, and an incremental reader for the host's. */
#ifndef AASM_GUEST_FRAME_H
#define AASM_GUEST_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Writes one frame with a single write() (payload <= GUEST_MAX_PAYLOAD); 0 on success. */
int frame_send(int fd, int type, const void *payload, size_t len);
/* frame_send of a printf-formatted text payload. */
int frame_sendf(int fd, int type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct frame_reader {
    unsigned char *buf;
    size_t len, cap;
};

/*
 * Reads what the port has (one read) into the reader. Returns bytes read, 0 at end of file, -1 on error
 * (errno set; EAGAIN when nothing is there).
 */
long frame_fill(struct frame_reader *r, int fd);
/*
 * The next complete frame, if any: returns 1 and sets type/payload/len (valid until frame_consume), 0 when
 * more bytes are needed, -1 when the frame is larger than HOST_MAX_PAYLOAD.
 */
int frame_next(struct frame_reader *r, int *type, unsigned char **payload, size_t *len);
void frame_consume(struct frame_reader *r, size_t len);

#endif
