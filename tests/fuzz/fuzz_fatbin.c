/* fuzz_fatbin.c: the libFuzzer harness for the fatbin target (tests/fuzz/targets.c); built and run by
 * `make fuzz`. */
#include "tests/fuzz/targets.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_fatbin_one(data, size);
}
