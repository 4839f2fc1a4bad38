#ifndef SCREENMATES_CNCURSESW_SHIM_H
#define SCREENMATES_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE flags, which hides the wide-character API;
// asking for it explicitly brings mvaddnwstr, wget_wch and wint_t back.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncurses.h>
#include <term.h>

// Swift 6 rejects mutable C globals; these accessors read them on the ncurses thread.
static inline WINDOW *sm_stdscr(void) { return stdscr; }
static inline WINDOW *sm_curscr(void) { return curscr; }
static inline int sm_lines(void) { return LINES; }
static inline int sm_cols(void) { return COLS; }
static inline int sm_colors(void) { return COLORS; }
static inline int sm_color_pairs(void) { return COLOR_PAIRS; }

// The A_* attribute macros are not imported.
static const attr_t sm_a_normal = A_NORMAL;
static const attr_t sm_a_bold = A_BOLD;
static const attr_t sm_a_dim = A_DIM;
static const attr_t sm_a_reverse = A_REVERSE;
static const attr_t sm_a_underline = A_UNDERLINE;
static const attr_t sm_a_italic = A_ITALIC;

static inline int sm_key_code_yes(void) { return KEY_CODE_YES; }

// Write a run of wide characters with one attribute set and colour pair. `setcchar` keeps
// each character's width as ncurses measures it; the caller positions every run itself.
static inline int sm_put_wide(int y, int x, const wchar_t *text, int count, attr_t attrs, short pair) {
    if (wattr_set(stdscr, attrs, pair, NULL) == ERR) return ERR;
    return mvwaddnwstr(stdscr, y, x, text, count);
}

// Frees the terminal description loaded by a preflight `setupterm`.
static inline void sm_release_setupterm(void) {
    TERMINAL *loaded = cur_term;
    set_curterm(NULL);
    if (loaded != NULL) del_curterm(loaded);
}

// Terminal capability strings used to restore the terminal from a signal handler.
static inline const char *sm_tigetstr(const char *name) {
    char *value = tigetstr(name);
    if (value == (char *)-1 || value == NULL) return NULL;
    return value;
}

#endif
