/*
** decoy_zlib.c: a host program's own "zlib", for the check that the
** extension uses the zlib it was built with whatever host loads it (README,
** "Platforms").  Linked with -rdynamic into a copy of tools/sqlrun
** ($(BUILD)/hosts/sqlrun-decoy-zlib), it exports every zlib function that
** the codecs and libpng call, the way Node.js exports its bundled zlib to
** its addons.  A library that left these names to the dynamic linker would
** call them: each one says so on stderr and aborts, so any SQL test run
** through this host fails at the first compressed byte the extension would
** have taken from the host.
**
** The constructor checks that the decoy is really what the process-wide
** name resolves to (dlsym of RTLD_DEFAULT), so that the test cannot pass
** only because the decoy was never in the way.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Reports that the host's zlib function `name` was called, and aborts. */
static void decoy_called(const char *name) {
  fprintf(stderr, "decoy zlib: the host's %s() was called: the extension uses the host's zlib\n", name);
  abort();
}

#define DECOY(name) \
  int name(void); \
  int name(void) { decoy_called(#name); return -2; }

DECOY(adler32)
DECOY(compress)
DECOY(compress2)
DECOY(compressBound)
DECOY(crc32)
DECOY(deflate)
DECOY(deflateBound)
DECOY(deflateEnd)
DECOY(deflateInit_)
DECOY(deflateInit2_)
DECOY(deflateReset)
DECOY(inflate)
DECOY(inflateEnd)
DECOY(inflateInit_)
DECOY(inflateInit2_)
DECOY(inflateReset)
DECOY(inflateReset2)
DECOY(inflateValidate)
DECOY(uncompress)
DECOY(zError)

/* Exits 3 unless the process-wide zlib names lead to the decoy. */
__attribute__((constructor)) static void decoy_check(void) {
  static const struct { const char *name; int (*own)(void); } names[] = {
    {"deflate", deflate}, {"inflate", inflate}, {"crc32", crc32}, {"compress2", compress2}, {"uncompress", uncompress},
  };
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (dlsym(RTLD_DEFAULT, names[i].name) != (void *)names[i].own) {
      fprintf(stderr, "decoy zlib: %s does not resolve to the decoy (built without -rdynamic?)\n", names[i].name);
      exit(3);
    }
  }
}
