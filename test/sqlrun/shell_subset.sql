-- test/run.sh runs this script through the sqlite3 shell and through
-- build/tools/sqlrun (linked with the same system SQLite) in an empty
-- temporary folder: their stdout, stderr and exit codes must be the same.
-- It exercises every shell feature that the suite's scripts use.
.headers on
select 1 as a, 'x' as b; select null, 2;
select 3
  as c;   select 4
;
.print 'quoted text' "dq\tx" plain\\n
.print
.nullvalue NULL
select null as n, '' as e;
.nullvalue ''
create table t(a unique);
insert into t values(1);
insert into t values(1); select 'skipped after a runtime error';
select nosuchcol from t; select 'skipped after a parse error';
select * from nosuch;
select 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, nosuch_column_after_25;
select 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, nosuch_column_after_50, 'é', 'and a long tail after it';
.nosuch
select 5; select 6
# hash comment
.nosuch
.headers off
select 1 as a union all select 2;
select zeroblob(2), x'41', 1.5, 1e100, -0.0, 9223372036854775807;
/* a comment
over lines */ select 'after comment';
/* a comment alone
over lines */
select no_such_function(1);
select 'a;b', "dq";
select 'a
b';
select 1 where 0;
  .print an indented dot line is SQL, up to the next semicolon
select 'so this fails';
.headers on
select 1 as a where 0;
.headers off
.load ./nonexistent
.mode box
select 1 as n, 'hello' as name, null as nil union all select 22, 'héé', 3.5;
select 1 where 0;
select 'two
lines' as v, 'tab	x' as w union all select 'a', 'b' union all select 'one', 'x
y
z';
select 'a long value that goes on for quite a while without any break at all, longer than sixty characters' as long;
select 'x' as "a very long column name", 2 as "ü";
select 1 as "hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh";
select 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa	b' as t;
select 'x' || char(1) || 'y' as ctl, char(13) || 'z' as cr, 'p' || char(13, 10) || 'q' as crlf;
.mode list
.shell mkdir -p d/sub && printf 'abc' >d/f1 && printf 'hello\n' >d/sub/f2
.system echo "a b" 'c  d'
select name, mode, typeof(mtime), data from fsdir('d') order by name;
select name, data from fsdir('sub', 'd') order by name;
select hex(readfile('d/f1')), readfile('d/nonexistent') is null;
select count(*) from fsdir('nonexistent');
select abs(-9223372036854775808);
create table before_open(a);
.open :memory:
select count(*) from sqlite_master;
create table before_open(a);
.open
select count(*) from sqlite_master;
.timer off
.bail off
.mode
select 'no semicolon at the end'
