/*
** biff_inflate.c: BIF V1.0 (one zlib stream) and BIFC V1.0 (zlib blocks)
** inflated into the BIFF V1 they hold (biff.h; layout and caps in
** NOTES-key.md).
**
** Every claimed size is checked before anything is allocated: against the
** caller's cap (CODEC_E_LIMIT) and against what the compressed bytes can
** hold at zlib's largest ratio (CODEC_E_FORMAT); the buffer is then
** allocated once, at the claimed size, and a stream that would write more
** is stopped at the buffer's end (a zlib bomb costs its claim, never more).
*/
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/bytes.h"
#include "key/biff.h"

/* Output bytes inflated between two polls of the cancel callback. */
#define BIFF_INFLATE_STEP ((size_t)4 << 20)

enum zstatus { ZS_OK, ZS_SHORT, ZS_LONG, ZS_CORRUPT, ZS_NOMEM, ZS_CANCEL };

/* Inflates the zlib stream in src[0..src_len), dropping its first `skip`
** bytes, into dst[0..dst_len), polling cancel every BIFF_INFLATE_STEP
** output bytes.  With `exact`, the stream must end there (ZS_OK), else
** ZS_LONG when it holds more; without, ZS_OK once dst is full.  ZS_SHORT
** when it ends (or the input does) before; ZS_CORRUPT, ZS_NOMEM, ZS_CANCEL.
** *in_used: the input bytes read, for the message. */
static int zinflate(const unsigned char *src, size_t src_len, uint64_t skip, unsigned char *dst, size_t dst_len,
                    int exact, const codec_cancel *cancel, size_t *in_used) {
  z_stream zs;
  size_t in_done = 0, out_done = 0, since_poll = 0;
  unsigned char scratch[4096];
  int zr, status;
  memset(&zs, 0, sizeof zs);
  *in_used = 0;
  if (inflateInit(&zs) != Z_OK) return ZS_NOMEM;
  for (;;) {
    size_t in_step = src_len - in_done, out_step, made;
    if (in_step > UINT32_MAX) in_step = UINT32_MAX;
    if (skip) { /* dropped bytes go to the scratch buffer */
      out_step = skip < sizeof scratch ? (size_t)skip : sizeof scratch;
      zs.next_out = scratch;
    } else if (out_done < dst_len) {
      out_step = dst_len - out_done < BIFF_INFLATE_STEP ? dst_len - out_done : BIFF_INFLATE_STEP;
      zs.next_out = dst + out_done;
    } else if (!exact) {
      status = ZS_OK;
      break;
    } else { /* dst is full: one spare byte tells a stream that holds more */
      out_step = 1;
      zs.next_out = scratch;
    }
    zs.next_in = (Bytef *)(uintptr_t)(src + in_done);
    zs.avail_in = (uInt)in_step;
    zs.avail_out = (uInt)out_step;
    zr = inflate(&zs, Z_NO_FLUSH);
    in_done += in_step - zs.avail_in;
    made = out_step - zs.avail_out;
    if (!skip && out_done == dst_len && made) {
      status = ZS_LONG;
      break;
    }
    if (skip)
      skip -= made;
    else
      out_done += made;
    if (zr == Z_STREAM_END) {
      status = !skip && out_done == dst_len ? ZS_OK : ZS_SHORT;
      break;
    }
    if (zr == Z_MEM_ERROR || (zr != Z_OK && zr != Z_BUF_ERROR)) {
      status = zr == Z_MEM_ERROR ? ZS_NOMEM : ZS_CORRUPT;
      break;
    }
    if (zr == Z_BUF_ERROR && in_done == src_len) {
      status = ZS_SHORT; /* the input ended inside the stream */
      break;
    }
    since_poll += made;
    if (since_poll >= BIFF_INFLATE_STEP) {
      since_poll = 0;
      if (codec_cancelled(cancel)) {
        status = ZS_CANCEL;
        break;
      }
    }
  }
  inflateEnd(&zs);
  *in_used = in_done;
  return status;
}

/* The error of a zinflate status for `what` (its stream at file offset at,
** claiming `claim` bytes); returns 0. */
static int zfail(int status, const char *what, size_t at, size_t used, size_t claim, codec_error *err) {
  switch (status) {
  case ZS_CANCEL:
    return codec_fail_interrupted(err);
  case ZS_NOMEM:
    return codec_fail_oom(err, "%s: out of memory in zlib", what);
  case ZS_LONG:
    return codec_fail(err, "%s: byte offset %zu: the zlib stream holds more than the %zu bytes claimed", what, at,
                      claim);
  case ZS_SHORT:
    return codec_fail(err, "%s: byte offset %zu: the zlib stream ends (or is truncated) before the %zu bytes claimed",
                      what, at + used, claim);
  default:
    return codec_fail(err, "%s: byte offset %zu: corrupt zlib stream", what, at + used);
  }
}

/* Whether `claim` bytes may come out of `compressed` zlib bytes. */
static int ratio_ok(uint64_t claim, uint64_t compressed) {
  return claim <= compressed * BIFF_MAX_ZLIB_RATIO + 64u;
}

/* Checks a total claim against the cap and allocates it. */
static int claim_buffer(const char *what, size_t at, uint32_t claim, size_t cap, unsigned char **buf,
                        codec_error *err) {
  if (claim > cap)
    return codec_fail_limit(err, "%s: byte offset %zu: %u uncompressed bytes claimed, more than the cap of %zu", what,
                            at, (unsigned)claim, cap);
  if (!(*buf = (unsigned char *)malloc(claim ? claim : 1)))
    return codec_fail_oom(err, "%s: out of memory for %u bytes", what, (unsigned)claim);
  return 1;
}

/* BIF V1.0: 'BIF ', 'V1.0', name length (counting its NUL), the name, the
** uncompressed and compressed sizes, one zlib stream.  Checks the header
** and gives the stream's offset (*at, after the sizes) and the sizes. */
static int bif_header(const unsigned char *data, size_t size, size_t *at, uint32_t *ulen, uint32_t *clen,
                      codec_error *err) {
  uint32_t name_len;
  size_t sizes;
  if (size < BIF_HEADER_SIZE || memcmp(data, "BIF V1.0", 8) != 0)
    return codec_fail(err, "BIF header: byte offset 0: not a BIF V1.0 archive (%zu bytes)", size);
  name_len = le32_load(data + 8);
  if (name_len > size - BIF_HEADER_SIZE || size - BIF_HEADER_SIZE - name_len < 8)
    return codec_fail(
        err, "BIF header: byte offset 8: a file name of %u bytes and the two sizes run past the end (%zu bytes)",
        (unsigned)name_len, size);
  sizes = BIF_HEADER_SIZE + (size_t)name_len;
  *ulen = le32_load(data + sizes);
  *clen = le32_load(data + sizes + 4);
  *at = sizes + 8;
  if (*clen > size - *at)
    return codec_fail(err, "BIF data: byte offset %zu: %u compressed bytes claimed, %zu there", *at, (unsigned)*clen,
                      size - *at);
  if (!ratio_ok(*ulen, *clen))
    return codec_fail(err, "BIF data: byte offset %zu: %u compressed bytes cannot inflate to the %u claimed", sizes,
                      (unsigned)*clen, (unsigned)*ulen);
  return 1;
}

static int inflate_bif(const unsigned char *data, size_t size, size_t cap, const codec_cancel *cancel,
                       unsigned char **out, size_t *out_size, codec_error *err) {
  uint32_t ulen, clen;
  size_t at, used;
  unsigned char *buf;
  int st;
  if (!bif_header(data, size, &at, &ulen, &clen, err) || !claim_buffer("BIF data", at - 8, ulen, cap, &buf, err))
    return 0;
  st = zinflate(data + at, clen, 0, buf, ulen, 1, cancel, &used);
  if (st != ZS_OK) {
    free(buf);
    return zfail(st, "BIF data", at, used, ulen, err);
  }
  *out = buf;
  *out_size = ulen;
  return 1;
}

int bif_info(const unsigned char *data, size_t size, uint32_t *inflated, codec_error *err) {
  size_t at;
  uint32_t clen;
  return bif_header(data, size, &at, inflated, &clen, err);
}

int bif_read(const unsigned char *data, size_t size, uint64_t offset, size_t len, const codec_cancel *cancel,
             unsigned char *dst, codec_error *err) {
  uint32_t ulen, clen;
  size_t at, used;
  int st;
  if (!bif_header(data, size, &at, &ulen, &clen, err)) return 0;
  if (offset > ulen || len > ulen - offset)
    return codec_fail_arg(err, "BIF: %zu bytes at offset %llu run past the %u bytes it holds", len,
                          (unsigned long long)offset, (unsigned)ulen);
  st = zinflate(data + at, clen, offset, dst, len, 0, cancel, &used);
  return st == ZS_OK ? 1 : zfail(st, "BIF data", at, used, ulen, err);
}

void bifc_map_free(bifc_map *m) {
  if (!m) return;
  free(m->blocks);
  free(m);
}

/* Checks block `block`'s header, the 8 bytes `head` read at file offset
** `at` of a file of `size` bytes (done of total bytes mapped before it),
** and returns its sizes. */
static int bifc_block_at(const unsigned char head[BIFC_BLOCK_HEADER_SIZE], uint64_t size, uint64_t at,
                         uint32_t block, size_t done, uint32_t total, uint32_t *ulen, uint32_t *clen,
                         codec_error *err) {
  uint64_t left = size - at - BIFC_BLOCK_HEADER_SIZE;
  *ulen = le32_load(head);
  *clen = le32_load(head + 4);
  if (*clen > left || *ulen > total - done || !ratio_ok(*ulen, *clen))
    return codec_fail(err,
                      "BIFC block %u: byte offset %llu: %u bytes from %u compressed do not fit (%llu bytes left in the "
                      "file, %zu of the %u claimed)",
                      (unsigned)block, (unsigned long long)at, (unsigned)*ulen, (unsigned)*clen,
                      (unsigned long long)left, (size_t)total - done, (unsigned)total);
  return 1;
}

/* biff_reader over bytes in memory (bifc_map_parse). */
typedef struct memory_file {
  const unsigned char *data;
} memory_file;

static int memory_read(void *ctx, uint64_t offset, unsigned char *dst, size_t n, codec_error *err) {
  (void)err; /* bifc_map_read asks only for bytes inside the size it was given */
  memcpy(dst, ((const memory_file *)ctx)->data + offset, n);
  return 1;
}

int bifc_map_parse(const unsigned char *data, size_t size, size_t max_inflated, const codec_cancel *cancel,
                   bifc_map **out, codec_error *err) {
  memory_file file = {data};
  biff_reader r = {memory_read, &file, size};
  return bifc_map_read(&r, max_inflated, cancel, out, err);
}

/* BIFC V1.0: 'BIFC', 'V1.0', the uncompressed size, then blocks of
** (uncompressed size, compressed size, zlib stream) until that size is
** reached.  Walks the block headers twice (count, then fill), reading 8
** bytes per block through the reader; inflates nothing. */
int bifc_map_read(const biff_reader *r, size_t max_inflated, const codec_cancel *cancel, bifc_map **out,
                  codec_error *err) {
  size_t cap = max_inflated ? max_inflated : BIFF_MAX_INFLATED;
  unsigned char head[BIFC_HEADER_SIZE];
  bifc_map *m;
  int pass;
  *out = NULL;
  if (r->size < BIFC_HEADER_SIZE)
    return codec_fail(err, "BIFC header: byte offset 0: not a BIFC V1.0 archive (%llu bytes)",
                      (unsigned long long)r->size);
  if (!r->read(r->ctx, 0, head, BIFC_HEADER_SIZE, err)) return 0;
  if (memcmp(head, "BIFCV1.0", 8) != 0)
    return codec_fail(err, "BIFC header: byte offset 0: not a BIFC V1.0 archive (%llu bytes)",
                      (unsigned long long)r->size);
  if (!(m = (bifc_map *)calloc(1, sizeof *m))) return codec_fail_oom(err, "BIFC header: out of memory");
  m->total = le32_load(head + 8);
  /* each block holds at most its compressed bytes times the ratio, plus
  ** 64; blocks take 8 bytes of header at least */
  if (m->total > (r->size - BIFC_HEADER_SIZE) * (BIFF_MAX_ZLIB_RATIO + 8u) + 64u) {
    codec_fail(err, "BIFC header: byte offset 8: %llu bytes of blocks cannot inflate to the %u claimed",
               (unsigned long long)(r->size - BIFC_HEADER_SIZE), (unsigned)m->total);
    bifc_map_free(m);
    return 0;
  }
  if (m->total > cap) {
    codec_fail_limit(err, "BIFC header: byte offset 8: %u uncompressed bytes claimed, more than the cap of %zu",
                     (unsigned)m->total, cap);
    bifc_map_free(m);
    return 0;
  }
  for (pass = 0; pass < 2; pass++) {
    uint64_t at = BIFC_HEADER_SIZE;
    size_t done = 0;
    uint32_t block = 0, ulen = 0, clen = 0;
    while (done < m->total) {
      unsigned char bh[BIFC_BLOCK_HEADER_SIZE];
      int ok;
      if (codec_cancelled_at(cancel, block)) {
        bifc_map_free(m);
        return codec_fail_interrupted(err);
      }
      if (r->size - at < BIFC_BLOCK_HEADER_SIZE)
        ok = codec_fail(err, "BIFC block %u: byte offset %llu: truncated after %zu of the %u bytes claimed",
                        (unsigned)block, (unsigned long long)at, done, (unsigned)m->total);
      else
        ok = r->read(r->ctx, at, bh, BIFC_BLOCK_HEADER_SIZE, err) &&
             bifc_block_at(bh, r->size, at, block, done, m->total, &ulen, &clen, err);
      if (!ok) {
        bifc_map_free(m);
        return 0;
      }
      if (pass) m->blocks[block] = (bifc_block){done, at + BIFC_BLOCK_HEADER_SIZE, ulen, clen};
      done += ulen;
      at += BIFC_BLOCK_HEADER_SIZE + (uint64_t)clen;
      block++;
    }
    m->num_blocks = block;
    if (!pass && block && !(m->blocks = (bifc_block *)malloc((size_t)block * sizeof *m->blocks))) {
      bifc_map_free(m);
      return codec_fail_oom(err, "BIFC blocks: out of memory for %u blocks", (unsigned)block);
    }
  }
  *out = m;
  return 1;
}

/* The first block whose bytes end after `offset`. */
static uint32_t bifc_first_block(const bifc_map *m, uint64_t offset) {
  uint32_t lo = 0, hi = m->num_blocks;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->blocks[mid].out_offset + m->blocks[mid].out_size <= offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int bifc_map_slice(const bifc_map *m, uint64_t offset, size_t len, bifc_map **out, codec_error *err) {
  uint32_t first, last;
  bifc_map *s;
  *out = NULL;
  if (offset > m->total || len > m->total - offset)
    return codec_fail_arg(err, "BIFC: %zu bytes at offset %llu run past the %u bytes it holds", len,
                          (unsigned long long)offset, (unsigned)m->total);
  if (!(s = (bifc_map *)calloc(1, sizeof *s))) return codec_fail_oom(err, "BIFC slice: out of memory");
  s->total = m->total;
  if (len) {
    first = bifc_first_block(m, offset);
    last = bifc_first_block(m, offset + len - 1);
    if (last >= m->num_blocks) { /* a map of bifc_map_read covers [0, total); a slice may not */
      free(s);
      return codec_fail_arg(err, "BIFC: the map's %u blocks do not hold %zu bytes at offset %llu",
                            (unsigned)m->num_blocks, len, (unsigned long long)offset);
    }
    s->num_blocks = last - first + 1;
  } else {
    first = 0;
  }
  if (s->num_blocks && !(s->blocks = (bifc_block *)malloc((size_t)s->num_blocks * sizeof *s->blocks))) {
    uint32_t n = s->num_blocks;
    free(s);
    return codec_fail_oom(err, "BIFC slice: out of memory for %u blocks", (unsigned)n);
  }
  if (s->num_blocks) memcpy(s->blocks, m->blocks + first, (size_t)s->num_blocks * sizeof *s->blocks);
  *out = s;
  return 1;
}

int bifc_read(const bifc_map *m, const unsigned char *data, size_t size, uint64_t offset, size_t len,
              const codec_cancel *cancel, unsigned char *dst, codec_error *err) {
  return bifc_read_at(m, data, 0, size, offset, len, cancel, dst, err);
}

int bifc_read_at(const bifc_map *m, const unsigned char *in, uint64_t in_base, size_t in_size, uint64_t offset,
                 size_t len, const codec_cancel *cancel, unsigned char *dst, codec_error *err) {
  uint32_t b;
  size_t got = 0;
  if (offset > m->total || len > m->total - offset)
    return codec_fail_arg(err, "BIFC: %zu bytes at offset %llu run past the %u bytes it holds", len,
                          (unsigned long long)offset, (unsigned)m->total);
  for (b = bifc_first_block(m, offset); got < len && b < m->num_blocks; b++) {
    const bifc_block *k = &m->blocks[b];
    size_t skip = offset + got > k->out_offset ? (size_t)(offset + got - k->out_offset) : 0, used;
    size_t take = k->out_size - skip < len - got ? k->out_size - skip : len - got;
    unsigned char *tmp = NULL;
    char what[48];
    int st;
    if (codec_cancelled(cancel)) return codec_fail_interrupted(err);
    if (k->out_offset > offset + got) /* a slice that lacks the range's start */
      break;
    if (k->in_offset < in_base || k->in_offset - in_base > in_size || k->in_size > in_size - (k->in_offset - in_base))
      return codec_fail_arg(err, "BIFC block %u: byte offset %llu: outside the %zu bytes given at %llu", (unsigned)b,
                            (unsigned long long)k->in_offset, in_size, (unsigned long long)in_base);
    /* a whole block inflates in place; a part, through a buffer of its own */
    if (take < k->out_size && !(tmp = (unsigned char *)malloc(k->out_size)))
      return codec_fail_oom(err, "BIFC block %u: out of memory for %u bytes", (unsigned)b, (unsigned)k->out_size);
    st = zinflate(in + (k->in_offset - in_base), k->in_size, 0, tmp ? tmp : dst + got, k->out_size, 1, cancel, &used);
    if (st == ZS_OK && tmp) memcpy(dst + got, tmp + skip, take);
    free(tmp);
    if (st != ZS_OK) {
      snprintf(what, sizeof what, "BIFC block %u", (unsigned)b);
      return zfail(st, what, (size_t)k->in_offset, used, k->out_size, err);
    }
    got += take;
  }
  if (got < len) /* a slice that does not hold the range */
    return codec_fail_arg(err, "BIFC: the blocks given hold %zu of the %zu bytes at offset %llu", got, len,
                          (unsigned long long)offset);
  return 1;
}

/* The whole BIFC V1.0: its map, then every block into one buffer. */
static int inflate_bifc(const unsigned char *data, size_t size, size_t cap, const codec_cancel *cancel,
                        unsigned char **out, size_t *out_size, codec_error *err) {
  bifc_map *m = NULL;
  unsigned char *buf;
  if (!bifc_map_parse(data, size, cap, cancel, &m, err)) return 0;
  if (!(buf = (unsigned char *)malloc(m->total ? m->total : 1))) {
    codec_fail_oom(err, "BIFC: out of memory for %u bytes", (unsigned)m->total);
    bifc_map_free(m);
    return 0;
  }
  if (!bifc_read(m, data, size, 0, m->total, cancel, buf, err)) {
    free(buf);
    bifc_map_free(m);
    return 0;
  }
  *out = buf;
  *out_size = m->total;
  bifc_map_free(m);
  return 1;
}

int biff_inflate(const unsigned char *data, size_t size, size_t max_inflated, const codec_cancel *cancel,
                 unsigned char **out, size_t *out_size, int *container, codec_error *err) {
  int kind = biff_sniff(data, size);
  size_t cap = max_inflated ? max_inflated : BIFF_MAX_INFLATED;
  *out = NULL;
  *out_size = 0;
  if (container) *container = kind;
  if (kind == BIFF_CONTAINER_BIF) return inflate_bif(data, size, cap, cancel, out, out_size, err);
  if (kind == BIFF_CONTAINER_BIFC) return inflate_bifc(data, size, cap, cancel, out, out_size, err);
  if (kind == BIFF_CONTAINER_BIFF)
    return codec_fail_arg(err, "BIFF header: byte offset 0: a plain BIFF V1, nothing to inflate");
  if (size >= 4 && (memcmp(data, "BIF ", 4) == 0 || memcmp(data, "BIFC", 4) == 0))
    return codec_fail(err, "archive header: byte offset 4: %.4s version '%.4s' is not V1.0", (const char *)data,
                      (const char *)data + 4);
  return codec_fail(err, "archive header: byte offset 0: not a BIF V1.0 or BIFC V1.0 archive (signature)");
}
