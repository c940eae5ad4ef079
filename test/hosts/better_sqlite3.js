// The README's better-sqlite3 recipe, run by test/hosts/better_sqlite3.sh:
//   node better_sqlite3.js MODULE_DIR EXTENSION MAP WWD
// loads the extension into a better-sqlite3 connection, reads, writes the
// Teeworlds map MAP (compressed with zlib: Node exports a zlib of its own)
// and the WWD level WWD, and reads both back in a new connection.  Prints
// one line per check, "ok NAME" or "FAIL NAME: ...".
'use strict';
const [moduleDir, extension, map, wwd] = process.argv.slice(2);
const Database = require(require('path').join(moduleDir, 'node_modules', 'better-sqlite3'));

// Prints the outcome of one check.
function check(name, got, want) {
  if (got === want) console.log(`ok ${name}`);
  else console.log(`FAIL ${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

let db = new Database(':memory:');
db.loadExtension(extension);
check('db.loadExtension, then a read', db.prepare('SELECT count(*) AS n FROM tw_groups(?)').get(map).n > 0, true);
const layers = db.prepare('SELECT count(*) AS n FROM tw_layers(?)').get(map).n;
let info = db.prepare("UPDATE tw_maps SET author = 'node' WHERE source = ?").run(map);
check('an UPDATE of the map', info.changes, 1);
info = db.prepare('UPDATE wwd_objects SET score = 6161 WHERE source = ? AND id = 1').run(wwd);
check('an UPDATE of the level', info.changes, 1);
db.close();

db = new Database(':memory:');
db.loadExtension(extension);
check('a new connection reads the map written',
      db.prepare('SELECT author FROM tw_maps(?)').get(map).author, 'node');
check('... whole', db.prepare('SELECT count(*) AS n FROM tw_layers(?)').get(map).n, layers);
check('a new connection reads the level written',
      db.prepare('SELECT score FROM wwd_objects(?) WHERE id = 1').get(wwd).score, 6161);
db.close();
