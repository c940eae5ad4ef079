/*
** atlas_card.c: the helpers a family's atlas draw fills its card with
** (engine.h, "an atlas of a collection"): numbers, pictures, markers, the
** files beside it that it read, a note.  Pure C (malloc, the codecs'
** canvas): they run on the atlas's threads.
**
** Text from a level file arrives as bytes that should be UTF-8; every
** helper keeps a copy in which each byte that does not start a UTF-8
** sequence XML may hold (svg_utf8_sequence) is U+FFFD, so the manifest's
** JSON and the pages are valid UTF-8 whatever the file holds (escaping
** comes later, where the text is written).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/canvas.h"
#include "common/svg.h"
#include "engine/atlas.h"

char *ls_atlas_utf8(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0, k = 0;
  char *out;
  if (n > (SIZE_MAX - 1) / 3 || !(out = malloc(n * 3 + 1))) return NULL; /* U+FFFD is 3 bytes for 1 */
  while (i < n) {
    size_t len = svg_utf8_sequence(p + i, n - i);
    if (len == 0 || p[i] == 0) {
      memcpy(out + k, "\xEF\xBF\xBD", 3);
      k += 3, i++;
    } else {
      memcpy(out + k, p + i, len);
      k += len, i += len;
    }
  }
  out[k] = 0;
  return out;
}

int ls_atlas_number_add(ls_atlas_card *card, const char *list, const char *name, size_t len, int64_t value,
                        codec_error *err) {
  ls_atlas_number *nums, *num;
  size_t k;
  /* a line of a list that names it already adds up (objects per logic) */
  for (k = 0; list && k < card->nnumbers; k++) {
    num = &card->numbers[k];
    if (num->list && strcmp(num->list, list) == 0 && strlen(num->name) == len && memcmp(num->name, name, len) == 0) {
      num->value += value;
      return 1;
    }
  }
  if (card->nnumbers >= LS_ATLAS_MAX_NUMBERS) return codec_fail_limit(err, "more than %d numbers", LS_ATLAS_MAX_NUMBERS);
  if (!(nums = realloc(card->numbers, (card->nnumbers + 1) * sizeof *nums))) return codec_fail_oom(err, "out of memory");
  card->numbers = nums;
  num = &nums[card->nnumbers];
  num->list = list ? ls_atlas_utf8(list, strlen(list)) : NULL;
  num->name = ls_atlas_utf8(name, len);
  num->value = value;
  if ((list && !num->list) || !num->name) {
    free(num->list);
    free(num->name);
    return codec_fail_oom(err, "out of memory");
  }
  card->nnumbers++;
  return 1;
}

/* A new picture at the end of the card's, with its caption; NULL with err. */
static ls_atlas_picture *new_picture(ls_atlas_card *card, const char *caption, codec_error *err) {
  ls_atlas_picture *pics, *p;
  if (card->npictures >= LS_ATLAS_MAX_PICTURES) {
    return codec_fail_limit(err, "more than %d pictures", LS_ATLAS_MAX_PICTURES), NULL;
  }
  if (!(pics = realloc(card->pictures, (card->npictures + 1) * sizeof *pics))) return codec_fail_oom(err, "out of memory"), NULL;
  card->pictures = pics;
  p = &pics[card->npictures];
  memset(p, 0, sizeof *p);
  if (!(p->caption = ls_atlas_utf8(caption, strlen(caption)))) return codec_fail_oom(err, "out of memory"), NULL;
  card->npictures++;
  return p;
}

/* Frees what a picture holds (the struct stays). */
static void picture_clear(ls_atlas_picture *p) {
  size_t i;
  for (i = 0; i < p->nmarkers; i++) free(p->markers[i].label);
  free(p->markers);
  free(p->caption);
  free(p->data);
  memset(p, 0, sizeof *p);
}

/* Drops the card's last picture (one that failed to be made). */
static void drop_last_picture(ls_atlas_card *card) {
  picture_clear(&card->pictures[--card->npictures]);
}

ls_atlas_picture *ls_atlas_add_canvas(ls_atlas_card *card, const char *caption, const canvas *c,
                                      const ls_atlas_opts *o, codec_error *err) {
  ls_atlas_picture *p = new_picture(card, caption, err);
  if (!p) return NULL;
  if (!canvas_png_encode(c, &p->data, &p->size, err)) {
    drop_last_picture(card);
    return NULL;
  }
  p->w = c->w, p->h = c->h;
  if (card->npictures == 1) {
    canvas small;
    int ok;
    memset(&small, 0, sizeof small);
    ok = canvas_shrink(c, o->thumb, &small, err);
    card->thumb.w = small.w, card->thumb.h = small.h; /* (before the PNG takes the canvas) */
    if (!ok || !canvas_png_take(&small, &card->thumb.data, &card->thumb.size, err)) {
      drop_last_picture(card);
      return NULL;
    }
  }
  return &card->pictures[card->npictures - 1];
}

ls_atlas_picture *ls_atlas_add_svg(ls_atlas_card *card, const char *caption, char *svg, size_t n, double w, double h,
                                   codec_error *err) {
  ls_atlas_picture *p = new_picture(card, caption, err);
  if (!p) {
    free(svg);
    return NULL;
  }
  p->data = (unsigned char *)svg, p->size = n, p->svg = 1;
  p->w = w < 1 ? 1 : w > 1e6 ? 1000000 : (int)(w + 0.5);
  p->h = h < 1 ? 1 : h > 1e6 ? 1000000 : (int)(h + 0.5);
  if (card->npictures == 1) card->thumb.svg = 1, card->thumb.w = p->w, card->thumb.h = p->h; /* the picture itself */
  return p;
}

int ls_atlas_marker_add(ls_atlas_picture *p, double x, double y, uint32_t rgb, const char *label, size_t len,
                        codec_error *err) {
  ls_atlas_marker *m;
  if (p->nmarkers == p->markers_cap) { /* doubling: a level has thousands of objects */
    size_t cap = p->markers_cap ? p->markers_cap * 2 : 64;
    if (cap > LS_ATLAS_MAX_MARKERS) return codec_fail_limit(err, "more than %d markers", LS_ATLAS_MAX_MARKERS);
    if (!(m = realloc(p->markers, cap * sizeof *m))) return codec_fail_oom(err, "out of memory");
    p->markers = m, p->markers_cap = cap;
  }
  m = &p->markers[p->nmarkers];
  m->x = x, m->y = y, m->rgb = rgb & 0xFFFFFFu;
  if (!(m->label = ls_atlas_utf8(label, len))) return codec_fail_oom(err, "out of memory");
  p->nmarkers++;
  return 1;
}

int ls_atlas_also(ls_atlas_card *card, const char *path, codec_error *err) {
  char **also = realloc(card->also, (card->nalso + 1) * sizeof *also);
  if (!also) return codec_fail_oom(err, "out of memory");
  card->also = also;
  if (!(also[card->nalso] = strdup(path))) return codec_fail_oom(err, "out of memory");
  card->nalso++;
  return 1;
}

int ls_atlas_note(ls_atlas_card *card, const char *note, codec_error *err) {
  size_t had = card->note ? strlen(card->note) : 0, n = strlen(note);
  char *joined = malloc(had + n + 3), *clean;
  if (!joined) return codec_fail_oom(err, "out of memory");
  /* a second note follows the first: "...; ..." */
  snprintf(joined, had + n + 3, "%s%s%s", had ? card->note : "", had ? "; " : "", note);
  clean = ls_atlas_utf8(joined, strlen(joined));
  free(joined);
  if (!clean) return codec_fail_oom(err, "out of memory");
  free(card->note);
  card->note = clean;
  return 1;
}

void ls_atlas_card_clear(ls_atlas_card *card) {
  size_t i;
  for (i = 0; i < card->npictures; i++) picture_clear(&card->pictures[i]);
  free(card->pictures);
  picture_clear(&card->thumb);
  for (i = 0; i < card->nnumbers; i++) {
    free(card->numbers[i].list);
    free(card->numbers[i].name);
  }
  free(card->numbers);
  for (i = 0; i < card->nalso; i++) free(card->also[i]);
  free(card->also);
  free(card->note);
  memset(card, 0, sizeof *card);
}
