/*
** gen_wz4_samples.c: writes two small werkkzeug4 projects (.wz4) built
** with the wz4 codec's model and writer (a wz4_doc filled in through the
** codec's setters, then wz4_serialize), for `make samples`
** (tools/gen_samples.sh), the demo, sql/wz4_cookbook.sql and the tests.
** Usage: gen_wz4_samples OUTDIR
**
** The projects look like farbrausch's (../shared/formats/wz4.md): document
** version 12, op records version 12, pages of stacked operators connected
** by grid position (an op's output feeds the op right below it), Store ops
** named by the user and Load ops (or any op with a link slot) naming them,
** across pages too.  Operator classes, output types and parameter words are
** the kinds real projects use.
** - intro.wz4: pages "textures", "meshes" and "scene": texture chains into
**   Stores, meshes, and a scene that loads them, with a bypassed Blur, a
**   hidden op (which feeds nothing), string parameters naming files, and
**   what the cookbook's checks find: Stores nothing loads, one of them
**   tex_title, which a Load still asks for by its old name tex_old (a name
**   link without a target).
** - logo.wz4: a logo texture on one page, shown on another.
** `gen_wz4_samples --fuzz OUTDIR` writes the same two as the seeds of
** test/fuzz/run.sh: 1 and 5 KB, with every chunk and op part between them.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"
#include "wz4/wz4.h"

#define OP_VERSION 12
#define DOC_VERSION 12
#define MAX_PARAMS 4
#define MAX_STRINGS 2

/* One stacked operator: grid cell (x, y), width in cells (height 1). */
typedef struct op_spec {
  int32_t x, y, w;
  const char *class_name, *type_name;
  const char *name;  /* the user's label (a link target), "" for none */
  uint32_t bypass, hide;
  const char *link;  /* its link slot: NULL none, "" unused, else the name it loads */
  uint32_t nparams;
  uint32_t params[MAX_PARAMS];
  uint32_t nstrings;
  const char *strings[MAX_STRINGS];
} op_spec;

/* A link default op (what a link slot gives when it names nothing) for
** the link slot of op `op` on page `page`: a GenBitmap op of the class,
** with one parameter word. */
typedef struct default_spec {
  uint32_t page, op;
  const char *class_name;
  uint32_t param;
} default_spec;

typedef struct page_spec {
  const char *name;
  uint32_t nops;
  const op_spec *ops;
} page_spec;

typedef struct project_spec {
  const char *file;
  uint32_t npages;
  const page_spec *pages;
  uint32_t ndefaults;
  const default_spec *defaults;
  /* the options chunk: version 0 (none), or 16 with these values */
  const char *music_file;
  uint32_t beats_per_second; /* 16.16 fixed point */
} project_spec;

#define OPS(a) (uint32_t)(sizeof a / sizeof a[0]), a

/* intro.wz4 */
static const op_spec intro_textures[] = {
    {0, 0, 3, "Perlin", "GenBitmap", "", 0, 0, NULL, 4, {8, 3, 1056964608, 4278190080u}, 0, {NULL}},
    {0, 1, 3, "Blur", "GenBitmap", "", 0, 0, NULL, 3, {2, 1065353216, 1065353216}, 0, {NULL}},
    {0, 2, 3, "MakeTexture", "Texture2D", "", 0, 0, "", 2, {0, 1}, 0, {NULL}},
    {0, 3, 3, "Store", "AnyType", "tex_rock", 0, 0, "", 0, {0}, 0, {NULL}},
    {4, 0, 3, "Import", "GenBitmap", "", 0, 0, NULL, 0, {0}, 1, {"data/logo512.png"}},
    {4, 1, 3, "Normals", "GenBitmap", "", 0, 0, NULL, 2, {1047502258, 1}, 0, {NULL}},
    {4, 2, 3, "MakeTexture", "Texture2D", "", 0, 0, "", 2, {0, 1}, 0, {NULL}},
    {4, 3, 3, "Store", "AnyType", "tex_bump", 0, 0, "", 0, {0}, 0, {NULL}}, /* nothing loads it */
    {8, 0, 3, "Text", "GenBitmap", "", 0, 0, "", 3, {0, 1030859260, 4294967295u}, 2, {"din 1451 engschrift", "farbrausch"}},
    {8, 1, 3, "Blur", "GenBitmap", "", 1, 0, NULL, 3, {1, 1065353216, 1065353216}, 0, {NULL}}, /* bypassed */
    {8, 2, 3, "MakeTexture", "Texture2D", "", 0, 0, "", 2, {0, 0}, 0, {NULL}},
    {8, 3, 3, "Store", "AnyType", "tex_title", 0, 0, "", 0, {0}, 0, {NULL}}, /* renamed from tex_old */
    {12, 0, 3, "Flat", "GenBitmap", "", 0, 1, NULL, 2, {771, 16777215}, 0, {NULL}}, /* hidden */
    {12, 1, 3, "MakeTexture", "Texture2D", "", 0, 0, "", 2, {0, 1}, 0, {NULL}},
};

static const op_spec intro_meshes[] = {
    {0, 0, 3, "Cube", "Wz4Mesh", "", 0, 0, NULL, 3, {1, 1, 1}, 0, {NULL}},
    {0, 1, 3, "Transform", "Wz4Mesh", "", 0, 0, NULL, 3, {1065353216, 1073741824, 1065353216}, 0, {NULL}},
    {0, 2, 3, "Store", "AnyType", "mesh_box", 0, 0, "", 0, {0}, 0, {NULL}},
    {4, 0, 3, "Sphere", "Wz4Mesh", "", 0, 0, NULL, 2, {24, 12}, 0, {NULL}},
    {4, 1, 3, "Store", "AnyType", "mesh_ball", 0, 0, "", 0, {0}, 0, {NULL}},
    {8, 0, 3, "Import", "Wz4Mesh", "", 0, 0, NULL, 0, {0}, 1, {"data/statue.obj"}},
    {8, 1, 3, "Store", "AnyType", "mesh_statue", 0, 0, "", 0, {0}, 0, {NULL}}, /* nothing loads it */
};

static const op_spec intro_scene[] = {
    {0, 0, 3, "Load", "AnyType", "", 0, 0, "mesh_box", 0, {0}, 0, {NULL}},
    {0, 1, 3, "SetMaterial", "Wz4Mesh", "", 0, 0, "mtrl_rock", 1, {0}, 0, {NULL}},
    {0, 2, 3, "Render", "Wz4Render", "", 0, 0, NULL, 1, {0}, 0, {NULL}},
    {4, 0, 3, "Load", "AnyType", "", 0, 0, "tex_rock", 0, {0}, 0, {NULL}},
    {4, 1, 3, "ModMaterial", "ModMtrl", "mtrl_rock", 0, 0, NULL, 2, {1, 0}, 0, {NULL}},
    {8, 0, 3, "Load", "AnyType", "", 0, 0, "mesh_ball", 0, {0}, 0, {NULL}},
    {8, 1, 3, "Load", "AnyType", "", 0, 0, "tex_old", 0, {0}, 0, {NULL}}, /* a name nothing has any more */
    {8, 2, 3, "Layer2D", "Wz4Render", "", 0, 0, NULL, 2, {0, 1065353216}, 0, {NULL}},
    {0, 3, 12, "Camera", "Wz4Render", "", 0, 0, NULL, 3, {0, 1112014848, 1065353216}, 0, {NULL}},
    {0, 4, 12, "Clip", "Wz4Render", "", 0, 0, NULL, 2, {0, 16}, 0, {NULL}},
};

/* on SetMaterial's material slot (scene) and the last MakeTexture's slot */
static const default_spec intro_defaults[] = {
    {2, 1, "Flat", 2056},
    {0, 13, "Perlin", 8},
};

static const page_spec intro_pages[] = {
    {"textures", OPS(intro_textures)},
    {"meshes", OPS(intro_meshes)},
    {"scene", OPS(intro_scene)},
};

/* logo.wz4 */
static const op_spec logo_logo[] = {
    {0, 0, 3, "Flat", "GenBitmap", "", 0, 0, NULL, 2, {771, 4278190080u}, 0, {NULL}},
    {0, 1, 3, "Text", "GenBitmap", "", 0, 0, "", 3, {0, 1030859260, 4294967295u}, 2, {"Bubbleboy2", "levelsql"}},
    {0, 2, 3, "Blur", "GenBitmap", "", 0, 0, NULL, 3, {2, 1056964608, 1056964608}, 0, {NULL}},
    {0, 3, 3, "MakeTexture", "Texture2D", "", 0, 0, "", 2, {0, 0}, 0, {NULL}},
    {0, 4, 3, "Store", "AnyType", "logo", 0, 0, "", 0, {0}, 0, {NULL}},
};

static const op_spec logo_show[] = {
    {0, 0, 3, "Load", "AnyType", "", 0, 0, "logo", 0, {0}, 0, {NULL}},
    {0, 1, 3, "Layer2D", "Wz4Render", "", 0, 0, NULL, 2, {0, 1065353216}, 0, {NULL}},
    {0, 2, 3, "Clip", "Wz4Render", "", 0, 0, NULL, 2, {0, 8}, 0, {NULL}},
};

static const page_spec logo_pages[] = {
    {"logo", OPS(logo_logo)},
    {"show", OPS(logo_show)},
};

static const project_spec projects[] = {
    {"intro.wz4", OPS(intro_pages), OPS(intro_defaults), "data/intro.ogg", 0x20000}, /* 120 bpm */
    {"logo.wz4", OPS(logo_pages), 0, NULL, NULL, 0},
};

/* Sets a model string from a C string through the codec's setter. */
static int set_str(wz4_str *dst, const char *s, codec_error *err) {
  return wz4_str_set(dst, s, strlen(s), err);
}

/* Fills one stacked node from its spec. */
static int fill_node(wz4_node *nd, const op_spec *o, codec_error *err) {
  wz4_op *op = &nd->op;
  size_t lens[MAX_STRINGS];
  uint32_t i;
  nd->pos_x = o->x;
  nd->pos_y = o->y;
  nd->width = o->w;
  nd->height = 1;
  nd->bypass = o->bypass;
  nd->hide = o->hide;
  op->version = OP_VERSION;
  for (i = 0; i < o->nstrings; i++) lens[i] = strlen(o->strings[i]);
  if (!set_str(&op->name, o->name, err) || !set_str(&op->class_name, o->class_name, err) ||
      !set_str(&op->type_name, o->type_name, err) || !wz4_op_set_params(op, o->params, o->nparams, err) ||
      !wz4_op_set_strings(op, o->strings, lens, o->nstrings, err))
    return 0;
  if (o->link) {
    op->links = (wz4_link *)calloc(1, sizeof(wz4_link));
    if (!op->links) return codec_fail(err, "out of memory");
    op->num_links = 1;
    if (!set_str(&op->links[0].name, o->link, err)) return 0;
  }
  return 1;
}

/* Gives a node's first link slot its default op. */
static int add_default(wz4_node *nd, const default_spec *d, codec_error *err) {
  wz4_op *def;
  if (!nd->op.num_links) return codec_fail(err, "default for an op without a link slot");
  if (!(def = (wz4_op *)calloc(1, sizeof *def))) return codec_fail(err, "out of memory");
  nd->op.links[0].def = def;
  nd->op.links[0].has_default = 1;
  def->version = OP_VERSION;
  return set_str(&def->class_name, d->class_name, err) && set_str(&def->type_name, "GenBitmap", err) &&
         wz4_op_set_params(def, &d->param, 1, err);
}

/* Builds one project.  Returns NULL (err set) on failure. */
static wz4_doc *build(const project_spec *s, codec_error *err) {
  wz4_doc *doc = (wz4_doc *)calloc(1, sizeof *doc);
  uint32_t p, k;
  if (!doc) goto oom;
  doc->version = DOC_VERSION;
  doc->pages = (wz4_page *)calloc(s->npages, sizeof(wz4_page));
  doc->page_names = (wz4_str *)calloc(s->npages, sizeof(wz4_str));
  if (!doc->pages || !doc->page_names) goto oom;
  doc->num_pages = doc->num_page_names = s->npages;
  if (s->music_file) {
    wz4_options *o = &doc->options;
    o->version = WZ4_OPTIONS_VERSION_MAX;
    o->beats_per_second = s->beats_per_second;
    o->beats = 64;
    o->screen_x = 1280;
    o->screen_y = 720;
    o->sample_rate = 44100;
    if (!set_str(&o->music_file, s->music_file, err) || !set_str(&o->project_name, s->file, err) ||
        !set_str(&o->page_name, s->pages[s->npages - 1].name, err))
      goto fail;
  }
  for (p = 0; p < s->npages; p++) {
    const page_spec *ps = &s->pages[p];
    wz4_page *pg = &doc->pages[p];
    if (!set_str(&pg->name, ps->name, err) || !set_str(&doc->page_names[p], ps->name, err)) goto fail;
    pg->nodes = (wz4_node *)calloc(ps->nops, sizeof(wz4_node));
    if (!pg->nodes) goto oom;
    pg->num_nodes = pg->num_stack = ps->nops;
    for (k = 0; k < ps->nops; k++)
      if (!fill_node(&pg->nodes[k], &ps->ops[k], err)) goto fail;
  }
  for (k = 0; k < s->ndefaults; k++)
    if (!add_default(&doc->pages[s->defaults[k].page].nodes[s->defaults[k].op], &s->defaults[k], err)) goto fail;
  return doc;
oom:
  codec_fail(err, "out of memory");
fail:
  wz4_free(doc);
  return NULL;
}

/* Reads a written project back with the codec (sample_write's check). */
static int wz4_reparse(const unsigned char *data, size_t size, codec_error *err) {
  wz4_doc *doc = NULL;
  int ok = wz4_parse(data, size, &doc, err);
  wz4_free(doc);
  return ok;
}

/* Sample i: projects[i], built and serialized (sample_run's build
** function). */
static int wz4_sample(size_t i, sample_file *f, codec_error *err) {
  const project_spec *s = &projects[i];
  wz4_doc *doc = build(s, err);
  uint32_t p, ops = 0;
  int ok = doc && wz4_serialize(doc, &f->data, &f->size, err);
  for (p = 0; p < s->npages; p++) ops += s->pages[p].nops;
  f->name = s->file;
  snprintf(f->what, sizeof f->what, "%u pages, %u operators", s->npages, ops);
  wz4_free(doc);
  return ok;
}

int main(int argc, char **argv) {
  sample_set files = {sizeof projects / sizeof projects[0], wz4_sample};
  return sample_run(argc, argv, "gen_wz4_samples", files, files, wz4_reparse);
}
