/*
** render_wz4.c: the werkkzeug4 page picture of render_wz4.h.
*/
#include "wz4/render_wz4.h"

#include <stdlib.h>
#include <string.h>

#include "common/canvas.h"
#include "common/svg.h"

#define MARGIN 12
#define TREE_WIDTH 8 /* grid cells of a tree op's box */

/* The box of node k in pixels. */
typedef struct op_box {
  double x, y, w, h;
} op_box;

static op_box node_box(const wz4_page *pg, uint32_t k) {
  const wz4_node *n = &pg->nodes[k];
  op_box b;
  if (wz4_node_is_tree(pg, k)) {
    uint32_t level = n->tree_level > 64 ? 64 : n->tree_level;
    b.x = MARGIN + level * (double)WZ4_RENDER_CELL_W;
    b.y = MARGIN + (k - pg->num_stack) * (WZ4_RENDER_CELL_H + 4.0);
    b.w = TREE_WIDTH * (double)WZ4_RENDER_CELL_W;
    b.h = WZ4_RENDER_CELL_H;
  } else {
    /* grid values are clamped so a damaged file stays drawable */
    int32_t x = n->pos_x < -100000 ? -100000 : n->pos_x > 100000 ? 100000 : n->pos_x;
    int32_t y = n->pos_y < -100000 ? -100000 : n->pos_y > 100000 ? 100000 : n->pos_y;
    int32_t w = n->width < 1 ? 1 : n->width > 1000 ? 1000 : n->width;
    int32_t h = n->height < 1 ? 1 : n->height > 1000 ? 1000 : n->height;
    b.x = MARGIN + x * (double)WZ4_RENDER_CELL_W;
    b.y = MARGIN + y * (double)WZ4_RENDER_CELL_H;
    b.w = w * (double)WZ4_RENDER_CELL_W;
    b.h = h * (double)WZ4_RENDER_CELL_H;
  }
  return b;
}

static const char wz4_css[] =
  ".box{stroke:#303030;stroke-width:1}"
  ".bypass .box{stroke-dasharray:4 3}"
  ".hidden{opacity:0.45}"
  ".class{font:bold 11px sans-serif;fill:#101010}"
  ".name{font:italic 10px sans-serif;fill:#303030}"
  ".stack{fill:#303030}"
  ".link{fill:none;stroke:#8030c0;stroke-width:1.5;stroke-dasharray:5 3}"
  ".link-away{font:10px sans-serif;fill:#8030c0}"
  ".away{fill:#8030c0}";

/* Name links to another page or to no op: a numbered mark at the op, and
** a line of the legend under the ops saying where the link goes. */
#define LEGEND_LINE 14
#define LEGEND_MAX 4096

/* Ops or edges drawn between two polls of the cancel (each is a few
** hundred bytes of SVG: microseconds). */
#define WZ4_POLL_EVERY 64

typedef struct legend {
  double x, top; /* where its first line goes */
  size_t lines;
} legend;

static void draw_op(svg_doc *d, const wz4_page *pg, uint32_t k, double dx, double dy) {
  const wz4_node *n = &pg->nodes[k];
  op_box b = node_box(pg, k);
  canvas_color col = canvas_name_color(wz4_str_text(&n->op.type_name), n->op.type_name.len, 255);
  int stacked = !wz4_node_is_tree(pg, k);
  svg_printf(d, "<g class=\"op%s%s\"><title>op %u: %T%s%T</title>", stacked && n->bypass ? " bypass" : "",
             stacked && n->hide ? " hidden" : "", k, n->op.class_name.len, wz4_str_text(&n->op.class_name),
             n->op.name.len ? " " : "", n->op.name.len, wz4_str_text(&n->op.name));
  svg_printf(d, "<rect class=\"box\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"3\" fill=\"rgb(%u,%u,%u)\"/>",
             b.x + dx, b.y + dy, b.w, b.h, (unsigned)(col.r / 2 + 127), (unsigned)(col.g / 2 + 127),
             (unsigned)(col.b / 2 + 127));
  svg_printf(d, "<text class=\"class\" x=\"%g\" y=\"%g\">%T</text>", b.x + dx + 4, b.y + dy + 15, n->op.class_name.len,
             wz4_str_text(&n->op.class_name));
  if (n->op.name.len) {
    svg_printf(d, "<text class=\"name\" x=\"%g\" y=\"%g\" text-anchor=\"end\">%T</text>", b.x + dx + b.w - 4,
               b.y + dy + 15, n->op.name.len, wz4_str_text(&n->op.name));
  }
  svg_printf(d, "</g>\n");
}

/* Whether edge e is a name link that leaves the page (or goes nowhere). */
static int link_away(const wz4_page *pg, uint32_t page, const wz4_edge *e) {
  return e->kind == WZ4_LINK_NAME &&
         !(e->from_page == (int64_t)page && e->from_op >= 0 && (uint64_t)e->from_op < pg->num_nodes);
}

static void draw_edge(svg_doc *d, const wz4_doc *doc, uint32_t page, const wz4_edge *e, double dx, double dy,
                      legend *lg) {
  const wz4_page *pg = &doc->pages[page];
  op_box to = node_box(pg, e->to_op), from;
  if (e->kind == WZ4_LINK_STACK) {
    double x;
    if (e->from_op < 0 || (uint64_t)e->from_op >= pg->num_nodes) return;
    from = node_box(pg, (uint32_t)e->from_op);
    /* the middle of the overlap of the two boxes' x ranges */
    x = ((from.x > to.x ? from.x : to.x) + (from.x + from.w < to.x + to.w ? from.x + from.w : to.x + to.w)) / 2 + dx;
    svg_printf(d, "<path class=\"stack\" d=\"M%g %gl-4 -5h8z\"/>\n", x, to.y + dy + 4);
    return;
  }
  if (!link_away(pg, page, e)) {
    double x0, y0, x1 = to.x + dx, y1 = to.y + dy + to.h / 2;
    from = node_box(pg, (uint32_t)e->from_op);
    x0 = from.x + from.w + dx, y0 = from.y + dy + from.h / 2;
    svg_printf(d, "<path class=\"link\" d=\"M%g %gC%g %g %g %g %g %g\"><title>%T</title></path>\n", x0, y0, x0 + 60, y0,
               x1 - 60, y1, x1, y1, e->link_name_len, e->link_name);
  } else if (lg->lines < LEGEND_MAX) {
    size_t n = ++lg->lines;
    svg_printf(d, "<circle class=\"away\" cx=\"%g\" cy=\"%g\" r=\"3\"><title>%zu</title></circle>\n", to.x + to.w + dx - 4,
               to.y + dy + 4, n);
    svg_printf(d, "<text class=\"link-away\" x=\"%g\" y=\"%g\">%zu. op %u &#8592; ", lg->x, lg->top + (double)n * LEGEND_LINE, n,
               e->to_op);
    if (e->from_page >= 0) svg_printf(d, "page %lld: %T</text>\n", (long long)e->from_page, e->link_name_len, e->link_name);
    else svg_printf(d, "missing: %T</text>\n", e->link_name_len, e->link_name);
  }
}

/* Draws the ops, then the edges, into d, polling cancel every
** WZ4_POLL_EVERY of them.  Returns 1, or 0 when cancel said stop. */
static int draw_page(svg_doc *d, const wz4_doc *doc, uint32_t page, const wz4_edge *edges, size_t nedges, double dx,
                     double dy, legend *lg, const codec_cancel *cancel) {
  const wz4_page *pg = &doc->pages[page];
  uint32_t k;
  size_t i;
  for (k = 0; k < pg->num_nodes; k++) {
    if (k % WZ4_POLL_EVERY == 0 && codec_cancelled(cancel)) return 0;
    draw_op(d, pg, k, dx, dy);
  }
  for (i = 0; i < nedges; i++) {
    if (i % WZ4_POLL_EVERY == 0 && codec_cancelled(cancel)) return 0;
    draw_edge(d, doc, page, &edges[i], dx, dy, lg);
  }
  return 1;
}

int wz4_render_svg(const wz4_doc *doc, uint32_t page, const codec_cancel *cancel, char **svg, size_t *svg_size,
                   codec_error *err) {
  const wz4_page *pg;
  wz4_edge *edges = NULL;
  size_t nedges = 0, i;
  double lo_x = 0, lo_y = 0, hi_x = 200, hi_y = 60, dx, dy;
  uint32_t k;
  size_t away = 0;
  int drawn;
  legend lg;
  svg_doc d;
  *svg = NULL;
  if (page >= doc->num_pages) return codec_fail_arg(err, "no page %u (the project has %u)", page, doc->num_pages);
  pg = &doc->pages[page];
  if (!wz4_page_links_cancel(doc, page, cancel, &edges, &nedges, err)) return 0;
  /* the extent of the boxes, then the legend's lines under them */
  for (k = 0; k < pg->num_nodes; k++) {
    op_box b = node_box(pg, k);
    if (b.x - MARGIN < lo_x) lo_x = b.x - MARGIN;
    if (b.y - MARGIN < lo_y) lo_y = b.y - MARGIN;
    if (b.x + b.w + MARGIN > hi_x) hi_x = b.x + b.w + MARGIN;
    if (b.y + b.h + MARGIN > hi_y) hi_y = b.y + b.h + MARGIN;
  }
  for (i = 0; i < nedges; i++) away += link_away(pg, page, &edges[i]);
  if (away > LEGEND_MAX) away = LEGEND_MAX;
  dx = -lo_x, dy = -lo_y;
  lg.x = MARGIN, lg.top = hi_y - lo_y - 4, lg.lines = 0;
  if (away && hi_x - lo_x < 260) hi_x = lo_x + 260;
  svg_begin(&d, hi_x - lo_x, hi_y - lo_y + (double)away * LEGEND_LINE + (away ? 6 : 0), wz4_css, "#fafafa");
  svg_printf(&d, "<title>page %u: %T</title>\n", page, pg->name.len, wz4_str_text(&pg->name));
  drawn = draw_page(&d, doc, page, edges, nedges, dx, dy, &lg, cancel);
  free(edges);
  if (!drawn) {
    svg_discard(&d);
    return codec_fail_interrupted(err);
  }
  if (!(*svg = svg_finish(&d, svg_size))) return codec_fail_oom(err, "out of memory for the SVG");
  return 1;
}
