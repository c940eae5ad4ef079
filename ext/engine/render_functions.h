/*
** render_functions.h: tw_render, wwd_render, wed_render, wz4_render (the
** previews, render_functions.c).
*/
#ifndef LEVELSQL_RENDER_FUNCTIONS_H
#define LEVELSQL_RENDER_FUNCTIONS_H

#include "engine/engine.h"

/* Registers the four functions on the connection; each holds a reference
** to the session it reads files through. */
int render_functions_register(sqlite3 *db, ls_session *sess);

#endif
