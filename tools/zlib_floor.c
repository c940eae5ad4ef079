/*
** zlib_floor.c: the floor of a cold read of WWD levels, for `make bench`
** (tools/bench.sh): reads each file named on the command line whole and
** inflates its compressed main block with zlib (what any reader must do),
** nothing more.  Prints one line per file, "<path> <size> <decompressed
** size>" (the header plus the inflated block; an uncompressed level is its
** size), so the bench can also relate the cache's bytes to what a level
** holds.  Exit status 1 when a file cannot be read or inflated.
**
**     build/tools/zlib_floor levels/A.WWD levels/B.WWD ...
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "wwd/wwd.h"

/* Reads a whole file into a malloc'd buffer; NULL on failure. */
static unsigned char *read_whole(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
      (buf = malloc((size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf) *size = (size_t)n;
  fclose(f);
  return buf;
}

/* The little-endian uint32 at p. */
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Inflates the zlib stream data[0..n) into a buffer grown as needed;
** returns the inflated size, or -1 when the stream is bad. */
static long long inflate_all(const unsigned char *data, size_t n) {
  z_stream z;
  size_t cap = n * 8 + 4096;
  unsigned char *out = malloc(cap);
  long long total = -1;
  int rc = Z_OK;
  memset(&z, 0, sizeof z);
  if (!out || inflateInit(&z) != Z_OK) {
    free(out);
    return -1;
  }
  z.next_in = (unsigned char *)data;
  z.avail_in = (uInt)n;
  while (rc == Z_OK) {
    unsigned char *grown;
    if (z.total_out == cap) {
      if (!(grown = realloc(out, cap * 2))) break;
      out = grown;
      cap *= 2;
    }
    z.next_out = out + z.total_out;
    z.avail_out = (uInt)(cap - z.total_out);
    rc = inflate(&z, Z_NO_FLUSH);
  }
  if (rc == Z_STREAM_END) total = (long long)z.total_out;
  inflateEnd(&z);
  free(out);
  return total;
}

int main(int argc, char **argv) {
  int i, status = 0;
  for (i = 1; i < argc; i++) {
    size_t size = 0;
    unsigned char *data = read_whole(argv[i], &size);
    long long decompressed = -1;
    if (data && size >= WWD_HEADER_SIZE) {
      /* header flags (offset 8): bit 0x2, the main block is one zlib stream */
      decompressed = (le32(data + 8) & 2) ? inflate_all(data + WWD_HEADER_SIZE, size - WWD_HEADER_SIZE) : 0;
      if (decompressed >= 0) decompressed += WWD_HEADER_SIZE;
      if (!(le32(data + 8) & 2)) decompressed = (long long)size;
    }
    if (decompressed < 0) {
      fprintf(stderr, "%s: cannot be read or inflated\n", argv[i]);
      status = 1;
    } else {
      printf("%s %zu %lld\n", argv[i], size, decompressed);
    }
    free(data);
  }
  return status;
}
