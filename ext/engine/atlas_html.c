/*
** atlas_html.c: the pages of levelsql_atlas (atlas.h): index.html and one
** page per level, as text.  Pure C (the atlas's threads write the level
** pages): the text is built in an svg_doc, whose %t escapes what comes
** from files (XML's escaping is HTML's: & < > " become entities, control
** bytes and invalid UTF-8 become '?'), so a level called
** <script>.map shows as that text and nothing else.  Attributes are always
** in double quotes.  The pages load nothing from the network and need no
** server: links and pictures are relative (levels/<id>.html,
** img/<id>-t.png), the style and the script are in the page.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/svg.h"
#include "engine/atlas.h"

/* ---- shared ---------------------------------------------------------------- */

static const char page_css[] =
  "body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#f4f4f1;color:#222}"
  "header,main,section,nav,footer{padding:0 16px}h1{font-size:20px;margin:12px 0 4px}h2{font-size:16px}"
  "code,pre{font:12px ui-monospace,monospace}pre{background:#fff;border:1px solid #ccc;padding:8px;overflow:auto}"
  "button.copy{float:right;font-size:11px}#least,#most{width:7em}"
  "table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}"
  "td.n{text-align:right}[hidden]{display:none!important}.note{color:#8a4b00}.path{color:#555;word-break:break-all}"
  ".controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}"
  "#cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px}"
  ".card{display:flex;flex-direction:column;background:#fff;border:1px solid #ccc;border-radius:6px;padding:8px;"
  "color:inherit;text-decoration:none;min-width:0}.card:hover{border-color:#36c}"
  ".card .pic{height:160px;display:flex;align-items:center;justify-content:center;"
  "background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}"
  ".card img{max-width:100%;max-height:160px}.card .name{font-weight:600;word-break:break-all;margin-top:6px}"
  ".card .format,.card .numbers,.card .list{font-size:12px;color:#555}"
  "figure{margin:12px 0}figcaption{font-weight:600}.scroll{overflow:auto;max-height:90vh;background:#fff;"
  "border:1px solid #ccc}.scroll>svg,.scroll>img{display:block}svg.picture text{font-family:sans-serif;"
  "paint-order:stroke;stroke:#fff;stroke-width:2px}svg.nolabels text{display:none}";

/* Starts a page: doctype, head with the title (escaped) and the style. */
static void page_begin(svg_doc *d, const char *title, const char *title2) {
  memset(d, 0, sizeof *d);
  svg_printf(d, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<link rel=\"icon\" href=\"data:,\">\n<title>%t%s%t</title>\n<style>",
             title, title2 ? " \xE2\x80\x93 " : "", title2 ? title2 : "");
  byte_writer_bytes(&d->out, page_css, sizeof page_css - 1);
  svg_printf(d, "</style>\n</head>\n<body>\n");
}

/* Ends the page and hands its text over (malloc'd); 1, or 0 when out of memory. */
static int page_finish(svg_doc *d, char **out, size_t *n) {
  unsigned char *text;
  size_t len;
  svg_printf(d, "</body>\n</html>\n");
  byte_writer_bytes(&d->out, "", 1);
  if (d->out.failed) {
    byte_writer_free(&d->out);
    return 0;
  }
  text = byte_writer_take(&d->out, &len);
  *out = (char *)text;
  *n = len - 1;
  return 1;
}

/* The last part of a path (after its last '/' or '\'). */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
  if (back && (!slash || back > slash)) slash = back;
  return slash ? slash + 1 : path;
}

/* "#rrggbb" of a marker's colour. */
static void color_text(uint32_t rgb, char out[8]) {
  snprintf(out, 8, "#%06x", (unsigned)(rgb & 0xFFFFFFu));
}

/* Whether a number's name may be part of an attribute name (data-n-NAME):
** lower-case letters, digits and '_' only; a family's card numbers are. */
static int attribute_word(const char *name) {
  const char *p;
  if (!*name) return 0;
  for (p = name; *p; p++) {
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return 0;
  }
  return 1;
}

/* "objects 12 · planes 3" of the card numbers, then the first lines of
** the first list: "objects per logic: Officer 12, Soldier 3, …". */
static void card_numbers(svg_doc *d, const ls_atlas_number *nums, size_t n) {
  size_t i, shown = 0;
  const char *list = NULL;
  svg_printf(d, "<span class=\"numbers\">");
  for (i = 0; i < n; i++) {
    if (nums[i].list) continue;
    svg_printf(d, "%s%t %lld", shown++ ? " \xC2\xB7 " : "", nums[i].name, (long long)nums[i].value);
  }
  svg_printf(d, "</span>\n");
  for (i = 0, shown = 0; i < n; i++) {
    if (!nums[i].list || (list && strcmp(list, nums[i].list) != 0)) continue;
    if (!list) svg_printf(d, "<span class=\"list\">%t: ", nums[i].list), list = nums[i].list;
    if (shown == 4) {
      svg_printf(d, ", \xE2\x80\xA6");
      break;
    }
    svg_printf(d, "%s%t %lld", shown++ ? ", " : "", nums[i].name, (long long)nums[i].value);
  }
  if (list) svg_printf(d, "</span>\n");
}

/* ---- index.html ---------------------------------------------------------------- */

static const char index_js[] =
  "(function () {\n"
  "  var main = document.getElementById('cards');\n"
  "  var cards = Array.prototype.slice.call(main.querySelectorAll('.card'));\n"
  "  var filter = document.getElementById('filter'), format = document.getElementById('format');\n"
  "  var sort = document.getElementById('sort'), order = document.getElementById('order');\n"
  "  var shown = document.getElementById('shown'), which = document.getElementById('which');\n"
  "  var least = document.getElementById('least'), most = document.getElementById('most');\n"
  "  cards.forEach(function (c) { c.searchText = c.getAttribute('data-path').toLowerCase(); });\n"
  "  function key(c, by) {\n"
  "    if (by === 'name') return c.getAttribute('data-name').toLowerCase();\n"
  "    if (by === 'format') return c.getAttribute('data-format');\n"
  "    var v = c.getAttribute('data-n-' + by);\n"
  "    return v === null ? null : Number(v);\n"
  "  }\n"
  "  function update() {\n"
  "    var text = filter.value.toLowerCase(), fmt = format.value, by = sort.value;\n"
  "    var dir = order.value === 'desc' ? -1 : 1, n = 0;\n"
  "    var sorted = cards.slice().sort(function (a, b) {\n"
  "      var ka = key(a, by), kb = key(b, by);\n"
  "      if (ka === null || kb === null) { if (ka !== kb) return ka === null ? 1 : -1; }\n"
  "      else if (ka < kb) return -dir;\n"
  "      else if (ka > kb) return dir;\n"
  "      return a.searchText < b.searchText ? -1 : a.searchText > b.searchText ? 1 : 0;\n"
  "    });\n"
  "    var w = which.value, lo = least.value === '' ? null : Number(least.value);\n"
  "    var hi = most.value === '' ? null : Number(most.value);\n"
  "    sorted.forEach(function (c) {\n"
  "      var show = (!fmt || c.getAttribute('data-format') === fmt) && c.searchText.indexOf(text) >= 0;\n"
  "      if (show && w && (lo !== null || hi !== null)) {\n"
  "        var v = key(c, w);\n"
  "        show = v !== null && (lo === null || v >= lo) && (hi === null || v <= hi);\n"
  "      }\n"
  "      c.hidden = !show;\n"
  "      if (show) n++;\n"
  "      main.appendChild(c);\n"
  "    });\n"
  "    shown.textContent = n + ' of ' + cards.length + ' shown';\n"
  "  }\n"
  "  [filter, format, sort, order, which, least, most].forEach(function (el) {\n"
  "    el.addEventListener('input', update);\n"
  "    el.addEventListener('change', update);\n"
  "  });\n"
  "  update();\n"
  "})();\n";

/* Whether the name is among names[0..n). */
static int listed_name(const char *const *names, size_t n, const char *name) {
  size_t i;
  for (i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

/* Adds name to names[0..*n) (grown); 1, or 0 when out of memory (the list kept). */
static int push_name(const char ***names, size_t *n, const char *name) {
  const char **grown = realloc((void *)*names, (*n + 1) * sizeof *grown);
  if (!grown) return 0;
  grown[(*n)++] = name;
  *names = grown;
  return 1;
}

/* The controls: filter by text, by format (each with its number of
** levels) and by a range of one of the card numbers, sort by name, format
** or any card number a level has. */
static int index_controls(svg_doc *d, const atlas_entry *const *entries, size_t n) {
  const char **formats = NULL, **numbers = NULL;
  size_t nformats = 0, nnumbers = 0, i, k, j;
  int ok = 1;
  for (i = 0; ok && i < n; i++) { /* the card numbers' names, in order of first appearance */
    for (k = 0; ok && entries[i]->kind && k < entries[i]->nnumbers; k++) {
      const ls_atlas_number *num = &entries[i]->numbers[k];
      if (num->list || !attribute_word(num->name) || listed_name(numbers, nnumbers, num->name)) continue;
      ok = push_name(&numbers, &nnumbers, num->name);
    }
  }
  svg_printf(d, "<div class=\"controls\">\n<input id=\"filter\" type=\"search\" placeholder=\"path contains\" "
                "aria-label=\"filter by path\">\n<select id=\"format\" aria-label=\"format\">"
                "<option value=\"\">every format</option>");
  for (i = 0; ok && i < n; i++) { /* formats, in order of first appearance */
    size_t count = 0;
    const atlas_entry *e = entries[i];
    if (!e->kind || e->error || listed_name(formats, nformats, e->format)) continue;
    for (j = i; j < n; j++) count += entries[j]->kind && !entries[j]->error && strcmp(entries[j]->format, e->format) == 0;
    svg_printf(d, "<option value=\"%t\">%t (%zu)</option>", e->format, e->format, count);
    ok = push_name(&formats, &nformats, e->format);
  }
  svg_printf(d, "</select>\n<select id=\"which\" aria-label=\"a number to filter by\"><option value=\"\">any numbers</option>");
  for (i = 0; i < nnumbers; i++) svg_printf(d, "<option value=\"%t\">%t</option>", numbers[i], numbers[i]);
  svg_printf(d, "</select>\n<input id=\"least\" type=\"number\" placeholder=\"at least\" aria-label=\"at least\">"
                "<input id=\"most\" type=\"number\" placeholder=\"at most\" aria-label=\"at most\">\n"
                "<select id=\"sort\" aria-label=\"sort by\"><option value=\"name\">name</option>"
                "<option value=\"format\">format</option>");
  for (i = 0; i < nnumbers; i++) svg_printf(d, "<option value=\"%t\">%t</option>", numbers[i], numbers[i]);
  free((void *)formats);
  free((void *)numbers);
  svg_printf(d, "</select>\n<select id=\"order\" aria-label=\"order\"><option value=\"asc\">ascending</option>"
                "<option value=\"desc\">descending</option></select>\n<span id=\"shown\"></span>\n</div>\n");
  return ok;
}

/* One level's card: a link to its page with its thumbnail, name, format
** and numbers, and the attributes the script sorts and filters by. */
static void index_card(svg_doc *d, const atlas_entry *e) {
  char thumb[64];
  size_t k;
  atlas_picture_name(e->id, e->thumb_svg ? 0 : -1, e->thumb_svg, thumb, sizeof thumb);
  svg_printf(d, "<a class=\"card\" id=\"c-%s\" href=\"levels/%s.html\" data-path=\"%t\" data-name=\"%t\" data-format=\"%t\"",
             e->id, e->id, e->path, base_name(e->path), e->format);
  for (k = 0; k < e->nnumbers; k++) {
    if (!e->numbers[k].list && attribute_word(e->numbers[k].name)) {
      svg_printf(d, " data-n-%s=\"%lld\"", e->numbers[k].name, (long long)e->numbers[k].value);
    }
  }
  svg_printf(d, ">\n<span class=\"pic\"><img src=\"%s\" width=\"%d\" height=\"%d\" alt=\"\" loading=\"lazy\"></span>\n"
                "<span class=\"name\">%t</span>\n<span class=\"format\">%t %t</span>\n",
             thumb, e->thumb_w, e->thumb_h, base_name(e->path), e->format, e->kind->noun);
  card_numbers(d, e->numbers, e->nnumbers);
  if (e->note) svg_printf(d, "<span class=\"note\">%t</span>\n", e->note);
  svg_printf(d, "</a>\n");
}

int atlas_index_html(const char *title, const char *source, const atlas_entry *const *entries, size_t n, char **out,
                     size_t *len) {
  svg_doc d;
  size_t i, levels = 0, unreadable = 0, other = 0;
  for (i = 0; i < n; i++) {
    if (entries[i]->error) unreadable++;
    else if (entries[i]->kind) levels++;
    else other++;
  }
  page_begin(&d, title, NULL);
  svg_printf(&d, "<header>\n<h1>%t</h1>\n<p class=\"summary\"><span id=\"levels\">%zu</span> levels, "
                 "<a href=\"#unreadable\">%zu unreadable</a>, <a href=\"#other\">%zu other files</a>"
                 " from <code>%t</code></p>\n",
             title, levels, unreadable, other, source);
  if (!index_controls(&d, entries, n)) {
    byte_writer_free(&d.out);
    return 0;
  }
  svg_printf(&d, "</header>\n<main id=\"cards\">\n");
  for (i = 0; i < n; i++) {
    if (entries[i]->kind && !entries[i]->error) index_card(&d, entries[i]);
  }
  svg_printf(&d, "</main>\n<section id=\"unreadable\">\n<h2>Unreadable files (%zu)</h2>\n", unreadable);
  if (unreadable) svg_printf(&d, "<table>\n<tr><th>file</th><th>format</th><th>error</th></tr>\n");
  for (i = 0; i < n; i++) {
    const atlas_entry *e = entries[i];
    if (e->error) svg_printf(&d, "<tr><td class=\"path\">%t</td><td>%t</td><td>%t</td></tr>\n", e->path,
                             e->format ? e->format : "", e->error);
  }
  if (unreadable) svg_printf(&d, "</table>\n");
  svg_printf(&d, "</section>\n<section id=\"other\">\n<h2>Other files (%zu)</h2>\n"
                 "<p>Files that are no level: tilesets, and files of no format levelsql reads.</p>\n<ul>\n", other);
  for (i = 0; i < n; i++) {
    const atlas_entry *e = entries[i];
    if (!e->error && !e->kind) svg_printf(&d, "<li><span class=\"path\">%t</span> (%t)</li>\n", e->path,
                                          e->format ? e->format : "no known format");
  }
  svg_printf(&d, "</ul>\n</section>\n<footer><p>Made by levelsql_atlas.</p></footer>\n<script>\n");
  byte_writer_bytes(&d.out, index_js, sizeof index_js - 1);
  svg_printf(&d, "</script>\n");
  return page_finish(&d, out, len);
}

/* ---- a level's page ------------------------------------------------------------- */

static const char page_js[] =
  "(function () {\n"
  "  var box = document.getElementById('labels');\n"
  "  if (box) box.addEventListener('change', function () {\n"
  "    document.querySelectorAll('svg.picture').forEach(function (s) { s.classList.toggle('nolabels', !box.checked); });\n"
  "  });\n"
  "  /* copy: to the clipboard where the browser lets a file:// page, else the query is selected */\n"
  "  document.querySelectorAll('button.copy').forEach(function (b) {\n"
  "    b.addEventListener('click', function () {\n"
  "      var code = b.nextElementSibling, range = document.createRange();\n"
  "      range.selectNodeContents(code);\n"
  "      window.getSelection().removeAllRanges();\n"
  "      window.getSelection().addRange(range);\n"
  "      if (navigator.clipboard) navigator.clipboard.writeText(code.textContent).then(function () {\n"
  "        b.textContent = 'copied';\n"
  "      }, function () {});\n"
  "    });\n"
  "  });\n"
  "})();\n";

/* An SVG picture, put in the page as it is (without its XML declaration;
** its text was escaped when it was drawn, codecs/common/svg.h). */
static void inline_svg(svg_doc *d, const ls_atlas_picture *p) {
  const char *text = (const char *)p->data, *end = text + p->size;
  if (p->size > 5 && memcmp(text, "<?xml", 5) == 0) {
    const char *close = strstr(text, "?>");
    if (close) text = close + 2;
  }
  while (text < end && (*text == '\n' || *text == '\r')) text++;
  byte_writer_bytes(&d->out, text, (size_t)(end - text));
}

/* A PNG picture with its markers: an SVG of the picture's size holding the
** image and, over it, a dot and a label per marker (labels toggled by the
** page's checkbox). */
static void png_with_markers(svg_doc *d, const ls_atlas_picture *p, const char *file) {
  double r = p->w > p->h ? p->w / 300.0 : p->h / 300.0, font = r * 3;
  size_t i;
  if (r < 3) r = 3;
  if (font < 10) font = 10;
  svg_printf(d, "<svg class=\"picture\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\">\n<image href=\"../%s\" width=\"%d\" height=\"%d\"/>\n",
             p->w, p->h, p->w, p->h, file, p->w, p->h);
  for (i = 0; i < p->nmarkers; i++) {
    const ls_atlas_marker *m = &p->markers[i];
    char col[8];
    color_text(m->rgb, col);
    svg_printf(d, "<g><title>%t</title><circle cx=\"%g\" cy=\"%g\" r=\"%g\" fill=\"%s\" stroke=\"#000\"/>"
                  "<text x=\"%g\" y=\"%g\" font-size=\"%g\">%t</text></g>\n",
               m->label, m->x, m->y, r, col, m->x + r + 1, m->y + font / 3, font, m->label);
  }
  svg_printf(d, "</svg>\n");
}

/* The table of numbers of one list (NULL: the card's numbers). */
static void numbers_table(svg_doc *d, const ls_atlas_number *nums, size_t n, const char *list) {
  size_t i;
  svg_printf(d, "<table>\n");
  for (i = 0; i < n; i++) {
    const char *l = nums[i].list;
    if (list ? !l || strcmp(l, list) != 0 : l != NULL) continue;
    svg_printf(d, "<tr><td>%t</td><td class=\"n\">%lld</td></tr>\n", nums[i].name, (long long)nums[i].value);
  }
  svg_printf(d, "</table>\n");
}

/* The path as an SQL string literal ('it''s.map'), for the ready queries;
** NULL when out of memory. */
static char *sql_literal(const char *path) {
  size_t n = 2, i, k = 0;
  char *out;
  for (i = 0; path[i]; i++) n += path[i] == '\'' ? 2 : 1;
  if (!(out = malloc(n + 1))) return NULL;
  out[k++] = '\'';
  for (i = 0; path[i]; i++) {
    if (path[i] == '\'') out[k++] = '\'';
    out[k++] = path[i];
  }
  out[k++] = '\'';
  out[k] = 0;
  return out;
}

/* The kind's ready queries, each {file} the path as an SQL literal. */
static int page_queries(svg_doc *d, const atlas_page *page) {
  const char *const *q;
  char *literal = sql_literal(page->entry->path);
  if (!literal) return 0;
  svg_printf(d, "<section id=\"queries\">\n<h2>Queries</h2>\n<p>Ready to copy into a shell that loaded levelsql "
                "(run from the folder the atlas was made from).</p>\n");
  for (q = page->entry->kind->queries; q && *q; q++) {
    const char *p = *q, *hole;
    svg_printf(d, "<pre><button type=\"button\" class=\"copy\">copy</button><code>");
    while ((hole = strstr(p, "{file}")) != NULL) {
      svg_text(d, p, (size_t)(hole - p));
      svg_text(d, literal, strlen(literal));
      p = hole + 6;
    }
    svg_printf(d, "%t</code></pre>\n", p);
  }
  svg_printf(d, "</section>\n");
  free(literal);
  return 1;
}

int atlas_page_html(const atlas_page *page, char **out, size_t *n) {
  const atlas_entry *e = page->entry;
  const ls_atlas_card *card = page->card;
  svg_doc d;
  size_t i, k, markers = 0;
  page_begin(&d, base_name(e->path), page->title);
  svg_printf(&d, "<nav><p><a id=\"back\" href=\"../index.html#c-%s\">\xE2\x86\x90 all levels</a></p></nav>\n<header>\n"
                 "<h1>%t</h1>\n<p class=\"path\">%t \xC2\xB7 %t %t \xC2\xB7 %lld bytes</p>\n",
             e->id, base_name(e->path), e->path, e->format, e->kind->noun, (long long)e->size);
  if (e->note) svg_printf(&d, "<p class=\"note\">%t</p>\n", e->note);
  for (i = 0; i < card->npictures; i++) markers += card->pictures[i].nmarkers;
  if (markers) svg_printf(&d, "<p><label><input type=\"checkbox\" id=\"labels\" checked> labels</label></p>\n");
  svg_printf(&d, "</header>\n<main>\n");
  for (i = 0; i < card->npictures; i++) {
    const ls_atlas_picture *p = &card->pictures[i];
    char file[64];
    atlas_picture_name(e->id, (int)i, p->svg, file, sizeof file);
    svg_printf(&d, "<figure>\n<figcaption>%t</figcaption>\n<div class=\"scroll\">\n", p->caption);
    if (p->svg) inline_svg(&d, p);
    else if (p->nmarkers) png_with_markers(&d, p, file);
    else svg_printf(&d, "<img src=\"../%s\" width=\"%d\" height=\"%d\" alt=\"\">\n", file, p->w, p->h);
    svg_printf(&d, "</div>\n</figure>\n");
  }
  svg_printf(&d, "<section id=\"numbers\">\n<h2>Numbers</h2>\n");
  numbers_table(&d, e->numbers, e->nnumbers, NULL);
  for (i = 0; i < e->nnumbers; i++) { /* each list once, where it first appears */
    const char *list = e->numbers[i].list;
    for (k = 0; list && k < i && !(e->numbers[k].list && strcmp(e->numbers[k].list, list) == 0); k++) {
    }
    if (!list || k < i) continue;
    svg_printf(&d, "<h3>%t</h3>\n", list);
    numbers_table(&d, e->numbers, e->nnumbers, list);
  }
  svg_printf(&d, "</section>\n<section id=\"tables\">\n<h2>Tables</h2>\n<table>\n<tr><th>table</th><th>rows</th></tr>\n");
  for (i = 0; i < page->ncounts; i++) {
    svg_printf(&d, "<tr><td>%t</td><td class=\"n\">%lld</td></tr>\n", page->counts[i].table, (long long)page->counts[i].rows);
  }
  svg_printf(&d, "</table>\n</section>\n");
  if (!page_queries(&d, page)) {
    byte_writer_free(&d.out);
    return 0;
  }
  svg_printf(&d, "</main>\n<script>\n");
  byte_writer_bytes(&d.out, page_js, sizeof page_js - 1);
  svg_printf(&d, "</script>\n");
  return page_finish(&d, out, n);
}
