/*
** twmap_blobs.h: the pixels of a map's images and the bytes of its sounds
** as data (tw_images.png, tw_sounds.data and name).
**
** Pure C, no SQLite.  Images go in and out as PNG through canvas.c (libpng,
** as DDNet): reading encodes the embedded pixels as an 8-bit RGBA PNG (RGB
** pixels of 0.7 images get alpha 255); embedding decodes any PNG libpng
** reads into RGBA pixels, its size capped (CANVAS_MAX_SIDE a side,
** CANVAS_MAX_PIXELS in all) before anything is allocated, and stores them
** with the width and height, the way DDNet's editor embeds an image.
**
** Blob bookkeeping: a changed pixel, sound or name blob is replaced in
** place (the datafile compresses it again on write, and only it); an item
** without one gets a new blob at the end.  Making an image external points
** it at no blob (-1) and replaces the pixel blob, which nothing else names,
** by one NUL byte: blob indices of other items stay valid, and the pixels
** leave the file.  DDNet's readers ignore a blob no item names.
**
** Ownership: the outputs of tw_image_png and tw_sound_data are malloc'd
** (the caller frees them with free()): the map keeps pixels and sound bytes
** compressed, so reading them adds nothing to it.  Inputs are only read.
*/
#ifndef LEVELSQL_TWMAP_BLOBS_H
#define LEVELSQL_TWMAP_BLOBS_H

#include <stddef.h>

#include "common/codec_error.h"
#include "tw/twmap.h"

/* Image i's embedded pixels as a PNG.  Fails (CODEC_E_ARG) for an external
** image, and with the codec's message for pixels that do not match the
** item's width, height and format. */
int tw_image_png(tw_map *m, size_t i, unsigned char **out, size_t *out_size, codec_error *err);

/* Embeds the PNG png[0..n) as image i's pixels: width, height, external = 0
** and (0.7 items) format = RGBA follow.  A PNG libpng refuses fails with
** CODEC_E_FORMAT, one over the size caps with CODEC_E_LIMIT; the map is
** unchanged then. */
int tw_image_embed_png(tw_map *m, size_t i, const unsigned char *png, size_t n, codec_error *err);

/* Makes image i external (the game loads mapres/NAME.png): the pixels are
** dropped as the top of this file says.  An external image stays as it is. */
int tw_image_make_external(tw_map *m, size_t i, codec_error *err);

/* A malloc'd copy of the embedded (opus) bytes of sound s (the caller
** frees it); *data = NULL, *size = 0 when the sound has none. */
int tw_sound_data(tw_map *m, size_t s, unsigned char **data, size_t *size, codec_error *err);

/* Replaces sound s's bytes with data[0..n) (n >= 1): the item's data size
** follows and the sound becomes embedded. */
int tw_sound_set_data(tw_map *m, size_t s, const unsigned char *data, size_t n, codec_error *err);

/* Sets sound s's name (no NUL byte in it; stored with one). */
int tw_sound_set_name(tw_map *m, size_t s, const char *name, size_t len, codec_error *err);

/* A row's worth of changes to image i, the rules of its table: a PNG
** given (png, png_n; NULL: none) embeds it (width, height and format
** follow) unless it is exactly the PNG the embedded image reads as; with a
** PNG, external must be 0 or not given (external_given 0); without one,
** external 1 makes an embedded image external and external 0 on an external
** image is refused (it needs the pixels).  Then a name that differs from
** the image's (name NULL: unchanged) is set.  On failure *field names what
** was refused ("external", "png" or "name"); messages speak of the SQL
** columns (tw_images). */
int tw_image_update(tw_map *m, size_t i, int external, int external_given, const unsigned char *png, size_t png_n,
                    const char *name, size_t name_len, const char **field, codec_error *err);
/* The same for sound s: new bytes (data NULL: none) embed them, then a
** name that differs is set; *field is "data" or "name". */
int tw_sound_update(tw_map *m, size_t s, const unsigned char *data, size_t n, const char *name, size_t name_len,
                    const char **field, codec_error *err);

#endif
