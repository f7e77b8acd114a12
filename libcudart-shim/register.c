/* register.c: the registration ABI that nvcc's generated host code calls from its constructors
 * (fatbins, kernels, variables) and at exit. Prototypes as in crt/host_runtime.h, which is C++
 * only. */
#include "runtime/rt.h"

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName, int ext, size_t size,
                              int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, void *hostVar,
                           size_t size);

void **__cudaRegisterFatBinary(void *fatCubin)
{
    return rt_register_fatbin(fatCubin);
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    rt_register_fatbin_end(fatCubinHandle);
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    rt_unregister_fatbin(fatCubinHandle);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress;  /* nvcc passes the name again */
    (void)global;
    rt_register_var(fatCubinHandle, hostVar, deviceName, size, constant != 0, ext != 0);
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName, int ext, size_t size,
                              int constant, int global)
{
    (void)deviceAddress;
    (void)ext;
    (void)constant;
    (void)global;
    rt_register_managed_var(fatCubinHandle, hostVarPtrAddress, deviceName, size);
}

char __cudaInitModule(void **fatCubinHandle)
{
    return rt_init_module(fatCubinHandle) ? 1 : 0;
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun;
    (void)thread_limit;
    (void)tid;
    (void)bid;
    (void)bDim;
    (void)gDim;
    (void)wSize;
    rt_register_function(fatCubinHandle, hostFun, deviceName);
}

/* Host variables visible to the device (device-side runtime); not used by ordinary programs. */
void __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, void *hostVar,
                           size_t size)
{
    (void)fatCubinHandle;
    (void)hostVar;
    (void)size;
    rt_unsupported("__cudaRegisterHostVar");
    (void)deviceName;
}
