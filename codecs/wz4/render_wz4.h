/*
** render_wz4.h: an SVG picture of one page of a werkkzeug4 project
** (wz4_render in SQL): the operator graph as the tool's page shows it.
**
** Pure C, no SQLite.  Stacked operators are boxes at their grid positions
** (WZ4_RENDER_CELL_W x WZ4_RENDER_CELL_H pixels a grid cell), each with its
** class and, when it has one, its name, filled with one colour per output
** type (canvas_name_color); bypassed ops have a dashed outline, hidden ops
** are faded.  Tree pages, whose ops have no position, list their ops one
** per row, indented by tree level.  Edges come from wz4_page_links: a
** stack edge is a small arrow where the input's bottom meets the op's top;
** a name link is a dashed curve from the named op (on the same page) to
** the op using it; a link to another page or to no op is a numbered dot
** on the op and a line of the legend under the ops: "1. op 4 <- page N:
** name" or "2. op 5 <- missing: name".
**
** SVG classes: op (the <g> of one operator, with a <title> giving its
** index, class and name), box, class (the class text), name, stack,
** link, away (the dot), link-away (the legend's lines).
*/
#ifndef LEVELSQL_RENDER_WZ4_H
#define LEVELSQL_RENDER_WZ4_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "wz4/wz4.h"

#define WZ4_RENDER_CELL_W 36
#define WZ4_RENDER_CELL_H 24

/* SVG text (malloc'd, NUL-terminated; caller frees with free()).  Returns
** 1, or 0 with err (no such page, out of memory; CODEC_E_INTERRUPT when
** `cancel`, NULL: none, said stop: it is polled every few ops and edges). */
int wz4_render_svg(const wz4_doc *doc, uint32_t page, const codec_cancel *cancel, char **svg, size_t *svg_size,
                   codec_error *err);

#endif
