/* Files opened without blocking (see CLuaShimRegularFiles.h). io.open follows liolib.c,
 * loadfile lauxlib.c's luaL_loadfilex and package.searchpath loadlib.c's searchpath, of
 * Lua 5.4.4, with open(2) non-blocking and a regular-file check in place of fopen:
 *
 * Copyright (C) 1994-2022 Lua.org, PUC-Rio.
 *
 * Permission is hereby granted, free of charge, to any person obtaining
 * a copy of this software and associated documentation files (the
 * "Software"), to deal in the Software without restriction, including
 * without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to
 * permit persons to whom the Software is furnished to do so, subject to
 * the following conditions:
 *
 * The above copyright notice and this permission notice shall be
 * included in all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
 * EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 * MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
 * IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
 * CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
 * TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
 * SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
#define _GNU_SOURCE
#include "CLuaShimRegularFiles.h"
#include "bounded.h"
#include "checkstop.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

/* Code here is copied from Lua 5.4.4's sources (the comment at the top says which), standing in for
 * the linked library's own functions: it must give their results and errors. Built against another
 * release it could differ from the library without a word, so the build stops instead. */
#if !defined(LUA_VERSION_RELEASE_NUM) || LUA_VERSION_RELEASE_NUM != 50404
#error "Sources/CLuaShim/regularfiles.c copies code of Lua 5.4.4 (LUA_VERSION_RELEASE_NUM 50404), but the lua.h found (pkg-config lua5.4) is another release: compare the copy with that release's sources, update it, then this check"
#endif

static const char *kind_of(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

/* open(2) with `flags`, never waiting: a descriptor of a regular file or a directory, or -1
 * with errno set (the open failed), or -2 with *kind set (something else). */
static int open_regular(const char *path, int flags, const char **kind) {
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    if (!S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
        close(fd);
        *kind = kind_of(info.st_mode);
        return -2;
    }
    int status = fcntl(fd, F_GETFL);
    if (status >= 0) fcntl(fd, F_SETFL, status & ~O_NONBLOCK);
    return fd;
}

/* Pushes "PATH: WHAT, not a regular file: WHY" (upvalue 1 is WHY). */
static const char *push_refusal(lua_State *L, const char *path, const char *kind) {
    return lua_pushfstring(L, "%s: %s, not a regular file: %s", path, kind, lua_tostring(L, lua_upvalueindex(1)));
}

/* The open(2) flags of an fopen mode, as liolib.c's l_checkmode accepts it; 0 if invalid. */
static int mode_flags(const char *mode, int *flags) {
    char c = *mode++;
    if (c == '\0' || strchr("rwa", c) == NULL) return 0;
    int plus = *mode == '+';
    if (plus) mode++;
    if (strspn(mode, "b") != strlen(mode)) return 0;
    switch (c) {
    case 'r': *flags = plus ? O_RDWR : O_RDONLY; break;
    case 'w': *flags = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC; break;
    default: *flags = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND; break;
    }
    return 1;
}

static int io_fclose(lua_State *L) {
    luaL_Stream *p = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    int res = fclose(p->f);
    return luaL_fileresult(L, (res == 0), NULL);
}

/* A file handle, closed for now (liolib.c's newprefile), on top of the stack. */
static luaL_Stream *new_handle(lua_State *L) {
    luaL_Stream *p = (luaL_Stream *)lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    p->closef = NULL;
    luaL_setmetatable(L, LUA_FILEHANDLE);
    return p;
}

/* io.open(filename [, mode]): as Lua's; a file that is not regular gives nil and why. */
static int regular_open(lua_State *L) {
    const char *filename = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    int flags;
    luaL_argcheck(L, mode_flags(mode, &flags), 2, "invalid mode");
    luaL_Stream *p = new_handle(L);
    const char *kind = NULL;
    int fd = open_regular(filename, flags, &kind);
    if (fd == -2) {
        luaL_pushfail(L);
        push_refusal(L, filename, kind);
        return 2;
    }
    if (fd < 0) return luaL_fileresult(L, 0, filename);
    p->f = fdopen(fd, mode);
    if (p->f == NULL) {
        int saved = errno;
        close(fd);
        errno = saved;
        return luaL_fileresult(L, 0, filename);
    }
    p->closef = &io_fclose;
    return 1;
}

/* loadfile, luaL_loadfilex's way, from a file opened here. */
typedef struct LoadF {
    int n;  /* number of pre-read characters */
    FILE *f;  /* file being read */
    char buff[BUFSIZ];  /* area for reading file */
} LoadF;

/* At most this much at a time, with a check between (see `load` in bounded.c). */
#define PIECE 512

static const char *getF(lua_State *L, void *ud, size_t *size) {
    LoadF *lf = (LoadF *)ud;
    ms_checkstop(L);
    if (lf->n > 0) {  /* are there pre-read characters to be read? */
        *size = lf->n;  /* return them (chars already in buffer) */
        lf->n = 0;  /* no more pre-read characters */
    } else {  /* read a block from file */
        if (feof(lf->f)) return NULL;
        *size = fread(lf->buff, 1, PIECE, lf->f);  /* read block */
    }
    return lf->buff;
}

static int errfile(lua_State *L, const char *what, int fnameindex) {
    const char *serr = strerror(errno);
    const char *filename = lua_tostring(L, fnameindex) + 1;
    lua_pushfstring(L, "cannot %s %s: %s", what, filename, serr);
    lua_remove(L, fnameindex);
    return LUA_ERRFILE;
}

static int skipBOM(LoadF *lf) {
    const char *p = "\xEF\xBB\xBF";  /* UTF-8 BOM mark */
    int c;
    lf->n = 0;
    do {
        c = getc(lf->f);
        if (c == EOF || c != *(const unsigned char *)p++) return c;
        lf->buff[lf->n++] = c;  /* to be read by the parser */
    } while (*p != '\0');
    lf->n = 0;  /* prefix matched; discard it */
    return getc(lf->f);  /* return next character */
}

static int skipcomment(LoadF *lf, int *cp) {
    int c = *cp = skipBOM(lf);
    if (c == '#') {  /* first line is a comment (Unix exec. file)? */
        do {  /* skip first line */
            c = getc(lf->f);
        } while (c != EOF && c != '\n');
        *cp = getc(lf->f);  /* skip end-of-line, if present */
        return 1;  /* there was a comment */
    } else return 0;  /* no comment */
}

static int loadfilex(lua_State *L, const char *filename, const char *mode) {
    LoadF lf;
    int status, readstatus;
    int c;
    int fnameindex = lua_gettop(L) + 1;  /* index of filename on the stack */
    const char *kind = NULL;
    lua_pushfstring(L, "@%s", filename);
    int fd = open_regular(filename, O_RDONLY, &kind);
    if (fd == -2) {
        lua_pushliteral(L, "cannot open ");
        push_refusal(L, filename, kind);
        lua_concat(L, 2);
        lua_remove(L, fnameindex);
        return LUA_ERRFILE;
    }
    lf.f = fd < 0 ? NULL : fdopen(fd, "r");
    if (lf.f == NULL) {
        if (fd >= 0) close(fd);
        return errfile(L, "open", fnameindex);
    }
    if (skipcomment(&lf, &c))  /* read initial portion */
        lf.buff[lf.n++] = '\n';  /* add line to correct line numbers */
    if (c != EOF)
        lf.buff[lf.n++] = c;  /* 'c' is the first character of the stream */
    /* (A binary chunk is not reopened in binary mode: on Linux the modes are the same.) */
    status = lua_load(L, getF, &lf, lua_tostring(L, -1), mode);
    readstatus = ferror(lf.f);
    fclose(lf.f);  /* close file (even in case of errors) */
    if (readstatus) {
        lua_settop(L, fnameindex);  /* ignore results from 'lua_load' */
        return errfile(L, "read", fnameindex);
    }
    lua_remove(L, fnameindex);
    return status;
}

/* loadfile([filename [, mode [, env]]]): lbaselib.c's luaB_loadfile; stdin is refused. */
static int regular_loadfile(lua_State *L) {
    const char *fname = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, NULL);
    int env = (!lua_isnone(L, 3) ? 3 : 0);  /* 'env' index or 0 if no 'env' */
    int status;
    if (fname == NULL) {
        lua_pushfstring(L, "cannot read stdin: %s", lua_tostring(L, lua_upvalueindex(1)));
        status = LUA_ERRFILE;
    } else status = loadfilex(L, fname, mode);
    return ms_load_aux(L, status, env);
}

/* package.searchpath, loadlib.c's, where a file is readable if it opens without waiting (a
 * FIFO is found, and then refused by loadfile with a message that names it). */
static int readable(const char *filename) {
    int fd = open(filename, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

static const char *getnextfilename(char **path, char *end) {
    char *sep;
    char *name = *path;
    if (name == end)
        return NULL;  /* no more names */
    else if (*name == '\0') {  /* from previous iteration? */
        *name = *LUA_PATH_SEP;  /* restore separator */
        name++;  /* skip it */
    }
    sep = strchr(name, *LUA_PATH_SEP);  /* find next separator */
    if (sep == NULL)  /* separator not found? */
        sep = end;  /* name goes until the end */
    *sep = '\0';  /* finish file name */
    *path = sep;  /* will start next search from here */
    return name;
}

static void pusherrornotfound(lua_State *L, const char *path) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "no file '");
    luaL_addgsub(&b, path, LUA_PATH_SEP, "'\n\tno file '");
    luaL_addstring(&b, "'");
    luaL_pushresult(&b);
}

static const char *searchpath(lua_State *L, const char *name, const char *path,
                              const char *sep, const char *dirsep) {
    luaL_Buffer buff;
    char *pathname;  /* path with name inserted */
    char *endpathname;  /* its end */
    const char *filename;
    /* separator is non-empty and appears in 'name'? */
    if (*sep != '\0' && strchr(name, *sep) != NULL)
        name = luaL_gsub(L, name, sep, dirsep);  /* replace it by 'dirsep' */
    luaL_buffinit(L, &buff);
    /* add path to the buffer, replacing marks ('?') with the file name */
    luaL_addgsub(&buff, path, LUA_PATH_MARK, name);
    luaL_addchar(&buff, '\0');
    pathname = luaL_buffaddr(&buff);  /* writable list of file names */
    endpathname = pathname + luaL_bufflen(&buff) - 1;
    while ((filename = getnextfilename(&pathname, endpathname)) != NULL) {
        ms_countstep(L);  /* a package.path of millions of templates (added) */
        if (readable(filename))  /* does file exist and is readable? */
            return lua_pushstring(L, filename);  /* save and return name */
    }
    luaL_pushresult(&buff);  /* push path to create error message */
    pusherrornotfound(L, lua_tostring(L, -1));  /* create error message */
    return NULL;  /* not found */
}

static int regular_searchpath(lua_State *L) {
    const char *f = searchpath(L, luaL_checkstring(L, 1), luaL_checkstring(L, 2),
                               luaL_optstring(L, 3, "."), luaL_optstring(L, 4, LUA_DIRSEP));
    if (f != NULL) return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;  /* return fail + error message */
}

/* Sets table[name] (the table on top) to `f` with `why` as its upvalue. */
static void set(lua_State *L, const char *name, lua_CFunction f, const char *why) {
    lua_pushstring(L, why);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

void ms_regularfiles_install(lua_State *L, const char *why) {
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, LUA_IOLIBNAME) == LUA_TTABLE) {
        set(L, "open", regular_open, why);
        /* stdin: an empty input, whatever the process's is (a terminal would block). */
        luaL_Stream *p = new_handle(L);
        p->f = fopen("/dev/null", "re");
        if (p->f != NULL) {
            p->closef = &io_fclose;
            lua_pushvalue(L, -1);
            lua_setfield(L, -3, "stdin");
            lua_setfield(L, LUA_REGISTRYINDEX, "_IO_input");  /* liolib.c's default input */
        } else lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, -1, LUA_LOADLIBNAME) == LUA_TTABLE) set(L, "searchpath", regular_searchpath, why);
    lua_pop(L, 2);
    lua_pushglobaltable(L);
    set(L, "loadfile", regular_loadfile, why);
    lua_pop(L, 1);
}
