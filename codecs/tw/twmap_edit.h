/*
** twmap_edit.h: structural edits of a Teeworlds / DDNet map (twmap.h):
** adding and removing groups, layers, quads, sound sources, envelopes,
** images and sounds, with the references that point at them kept right.
**
** Pure C, no SQLite.  Every function changes the map's datafile the way
** DDNet's editor would have written the result, and leaves the map's
** indexes (group_items, layers[], ...) rebuilt, so every getter and setter
** of twmap.h works on the edited map at once.
**
** Choices, and why:
** - New things get the DDNet editor's defaults (src/game/editor at
**   ddnet/ddnet 08923c1): a group has parallax 100/100, no offset, no
**   clipping and no name; a tile layer is white, without image or envelope,
**   unnamed, and as large as the game layer (50 x 50 without one); the
**   physics layers are named "Game", "Front", "Tele", "Speedup", "Switch",
**   "Tune"; a quad is 64 x 64 around (0, 0), white, texture 0..1; a sound
**   source loops, pans, falls off at 80 and is a circle of radius 1500.
** - DDNet's layer rules: one game layer, at most one front, tele, speedup,
**   switch and tune layer, those only in the game layer's group and sized
**   like the game layer.  The game layer and its group cannot be removed.
** - References follow: removing an image, envelope or sound lowers every
**   index past it (tile and quads layers, quads, sound sources, sounds
**   layers); removing one still in use fails and names the user.
** - Images, envelopes and sounds are appended (an insert in the middle would
**   renumber every user for nothing); groups, layers, quads and sources go
**   at any position.  Removing a layer, image or sound also removes the
**   data blobs only it used (the blob indices of the items the model knows
**   are lowered; an item type the model does not know that pointed at a
**   blob would not be, and no such item is known in DDNet or Teeworlds).
** - Item ids: a type whose ids were 0..n-1 in list order is renumbered so
**   again (as DDNet writes them); otherwise a new item takes max id + 1.
** - Emptying a quads or sounds layer keeps one zeroed element in its blob,
**   as DDNet's editor writes an empty layer.
** - The row keys follow (twmap.h, "row keys"): a row inserted takes a fresh
**   key, the others keep theirs.  An edit that fails for want of memory
**   for the keys changes nothing.
*/
#ifndef LEVELSQL_TWMAP_EDIT_H
#define LEVELSQL_TWMAP_EDIT_H

#include "tw/twmap.h"

/* The editor's size for tile layers when the map has no game layer. */
#define TW_NEW_LAYER_SIZE 50

/* A position for tw_group_insert, tw_layer_insert, tw_quad_insert and
** tw_source_insert: after the last. */
#define TW_LAST ((size_t)-1)

/* Adds an empty group at index g (0..num_groups or TW_LAST: after the others). */
int tw_group_insert(tw_map *m, size_t g, codec_error *err);
/* Removes group g with every layer it holds.  Refuses the game group. */
int tw_group_delete(tw_map *m, size_t g, codec_error *err);

/* Adds a layer of `kind` as layer k of group g (k = the group's layer
** count or TW_LAST: last).  width/height: 0 takes the default (game layer
** size, else 50); the physics layers must be the game layer's size.
** Returns the new layer's global index in *l. */
int tw_layer_insert(tw_map *m, size_t g, size_t k, tw_kind kind, int width, int height, size_t *l, codec_error *err);
/* tw_layer_insert of the kind named kind_name (tw_kind_by_name; NULL:
** tiles), an INSERT's: a name that is no kind a layer can be added as is
** refused naming the column kind and the kinds. */
int tw_layer_insert_named(tw_map *m, size_t g, size_t k, const char *kind_name, int width, int height, size_t *l,
                          codec_error *err);
/* Removes layer l and the blobs only it used.  Refuses the game layer. */
int tw_layer_delete(tw_map *m, size_t l, codec_error *err);

/* Adds a default quad at position q (0..count, TW_LAST: count) of quads layer l. */
int tw_quad_insert(tw_map *m, size_t l, size_t q, codec_error *err);
int tw_quad_delete(tw_map *m, size_t l, size_t q, codec_error *err);

/* A sound source of a `sounds` layer (DDNet's CSoundSource, raw values as
** stored: positions in 1/1024 units).  shape 0 rectangle (width, height),
** 1 circle (width holds the radius, height is 0). */
typedef struct tw_source {
  int x, y, loop, panning, time_delay, falloff;
  int pos_env, pos_env_offset, sound_env, sound_env_offset;
  int shape, width, height;
} tw_source;

int tw_source_get(tw_map *m, size_t l, size_t s, tw_source *out, codec_error *err);
/* Writes a source; envelope indices must exist (or be -1), shape 0 or 1. */
int tw_source_set(tw_map *m, size_t l, size_t s, const tw_source *in, codec_error *err);
/* A source's size as width, height (a rectangle's) and radius (a
** circle's: its width field holds it), -1 where the shape has none. */
void tw_source_sides(const tw_source *s, int *width, int *height, int *radius);
/* A source's size as width, height (a rectangle's) and radius (a
** circle's), -1 where the shape has none, checked against its shape and
** written into *s: a circle needs a radius and takes no width or height
** given (`given`: the TW_GIVEN_* bits of those a change set), a rectangle
** needs a width and a height and takes no radius given.  On failure *field
** names the value refused ("width", "height" or "radius"). */
enum { TW_GIVEN_WIDTH = 1, TW_GIVEN_HEIGHT = 2, TW_GIVEN_RADIUS = 4 };
int tw_source_size(tw_source *s, int width, int height, int radius, int given, const char **field, codec_error *err);
/* Adds a default source at position s (0..count, TW_LAST: count) of sounds layer l. */
int tw_source_insert(tw_map *m, size_t l, size_t s, codec_error *err);
int tw_source_delete(tw_map *m, size_t l, size_t s, codec_error *err);

/* Appends an envelope of 1 (sound), 3 (position) or 4 (color) channels
** with the editor's two points (0 ms and 1000 ms). */
int tw_envelope_insert(tw_map *m, int channels, codec_error *err);
/* tw_envelope_insert of the kind named kind_name ("position", "color" or
** "sound", as tw_envelope_get names it), an INSERT's: another name or
** NULL is refused naming the column kind. */
int tw_envelope_insert_named(tw_map *m, const char *kind_name, codec_error *err);
/* Removes envelope e and its points; fails while a layer, quad or source
** uses it. */
int tw_envelope_delete(tw_map *m, size_t e, codec_error *err);

/* Appends an external image (no pixels) named name[0..len), width x height. */
int tw_image_insert(tw_map *m, const char *name, size_t len, int width, int height, codec_error *err);
/* Removes image i, its name and pixels; fails while a layer uses it. */
int tw_image_delete(tw_map *m, size_t i, codec_error *err);

/* Appends a sound named name[0..len) without data (external). */
int tw_sound_insert(tw_map *m, const char *name, size_t len, codec_error *err);
/* Removes sound s, its name and data; fails while a sounds layer uses it. */
int tw_sound_delete(tw_map *m, size_t s, codec_error *err);

/* The index of the game layer, or -1. */
long tw_map_game_layer(const tw_map *m);

#endif
