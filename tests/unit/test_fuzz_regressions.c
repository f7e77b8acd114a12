/* test_fuzz_regressions.c: every input of the fuzzers' seed corpora and every input a fuzzer
 * ever found (tests/fuzz/regressions/TARGET/), run through the same targets as the libFuzzer
 * harnesses (tests/fuzz/targets.c), here under ASan and UBSan in `make check`. A finding is
 * fixed, then its input goes into tests/fuzz/regressions/ so it stays fixed. */
#include "tests/fuzz/targets.c"
#include "tests/unit/ptx_kernels.h"

#include <check.h>
#include <dirent.h>
#include <string.h>

typedef int (*target_fn)(const uint8_t *, size_t);

/* Runs fn over every regular file of dir whose name ends with suffix (all when ""), and over
 * every subfolder; returns how many files ran. */
static int replay_dir(const char *dir, const char *suffix, target_fn fn)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (e->d_type == DT_DIR) {
            n += replay_dir(path, suffix, fn);
            continue;
        }
        if (len < sl || strcmp(e->d_name + len - sl, suffix) != 0)
            continue;
        size_t size = 0;
        char *data = pk_read_file(path, &size);
        ck_assert_msg(data != NULL, "cannot read %s", path);
        fn((const uint8_t *)data, size);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

START_TEST(ptx_inputs)
{
    int n = replay_dir("tests/ptx", ".ptx", fuzz_ptx_one);
    n += replay_dir("tests/fuzz/regressions/ptx", "", fuzz_ptx_one);
    ck_assert_int_gt(n, 10);
}
END_TEST

START_TEST(fatbin_inputs)
{
    int n = replay_dir("tests/fixtures/fatbin", ".fatbin", fuzz_fatbin_one);
    n += replay_dir("tests/fuzz/regressions/fatbin", "", fuzz_fatbin_one);
    ck_assert_int_gt(n, 5);
}
END_TEST

START_TEST(runtime_inputs)
{
    int n = replay_dir("tests/fuzz/regressions/runtime", "", fuzz_runtime_one);
    ck_assert_int_gt(n, 0);
}
END_TEST

static Suite *fuzz_suite(void)
{
    Suite *s = suite_create("fuzz_regressions");
    TCase *t = tcase_create("replay");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, ptx_inputs);
    tcase_add_test(t, fatbin_inputs);
    tcase_add_test(t, runtime_inputs);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return pk_main(fuzz_suite()); }
