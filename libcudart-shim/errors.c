/* errors.c: error names, messages and the last-error queries. */
#include "runtime/rt.h"

const char *cudaGetErrorName(cudaError_t error)
{
    return rt_error_name(error);
}

const char *cudaGetErrorString(cudaError_t error)
{
    return rt_error_string(error);
}

cudaError_t cudaGetLastError(void)
{
    return rt_get_last_error();
}

cudaError_t cudaPeekAtLastError(void)
{
    return rt_peek_last_error();
}
