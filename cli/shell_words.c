/* shell_words.c: command lines as words and back, for `ptxsim sweep`. The apps file holds one
 * command line per line, written as one would type it (quotes for arguments with spaces), and
 * each run's `command` file and the Slurm job scripts must be read back by sh exactly; both
 * directions live here so they agree. No expansions ($, *, ~): a sweep runs what is written. */
#include "cli/sweep.h"

#include <stdlib.h>
#include <string.h>

void shell_words_free(char **words)
{
    if (!words)
        return;
    for (char **w = words; *w; w++)
        free(*w);
    free(words);
}

char **shell_words_split(const char *line, size_t *count, char *err, size_t errlen)
{
    size_t n = 0, cap = 8;
    char **words = calloc(cap, sizeof *words);
    char *word = malloc(strlen(line) + 1);   /* no word is longer than the line */
    if (!words || !word) {
        snprintf(err, errlen, "out of memory");
        free(word);
        free(words);
        return NULL;
    }
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t len = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end) {
                    snprintf(err, errlen, "unterminated ' quote");
                    goto fail;
                }
                memcpy(word + len, p + 1, (size_t)(end - p - 1));
                len += (size_t)(end - p - 1);
                p = end + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    /* inside "...", a backslash escapes only these (as in sh) */
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                        p++;
                    word[len++] = *p++;
                }
                if (*p != '"') {
                    snprintf(err, errlen, "unterminated \" quote");
                    goto fail;
                }
                p++;
            } else if (*p == '\\') {
                if (!p[1]) {
                    snprintf(err, errlen, "a backslash ends the line");
                    goto fail;
                }
                word[len++] = p[1];
                p += 2;
            } else {
                word[len++] = *p++;
            }
        }
        word[len] = 0;
        if (n + 2 > cap) {
            cap *= 2;
            char **nw = realloc(words, cap * sizeof *nw);
            if (!nw) {
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
            words = nw;
        }
        if (!(words[n] = strdup(word))) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        words[++n] = NULL;
    }
    free(word);
    *count = n;
    return words;
fail:
    free(word);
    shell_words_free(words);
    return NULL;
}

void shell_quote(FILE *out, const char *word)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789-_./=:,+@%";
    if (*word && strspn(word, safe) == strlen(word)) {
        fputs(word, out);
        return;
    }
    fputc('\'', out);
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", out);   /* close, an escaped quote, reopen */
        else
            fputc(*p, out);
    }
    fputc('\'', out);
}
