/* rt.h: the runtime's public interface, used by the libcudart shim and the `ptxsim` command.
 *
 * The runtime is the CUDA runtime's behaviour without a GPU: it keeps the registered fatbins
 * (parsed lazily), device memory, streams and events, launches kernels on the timing engine,
 * and the error state (last error per host thread, sticky error after a kernel fault). Its
 * functions take and return the CUDA runtime's own types, so the shim's exported functions
 * are one-line wrappers; each returns the cudaError_t the real runtime would return.
 *
 * Work on streams (launches, copies, fills, host functions) is queued and run by the device
 * worker thread in issue order (worker.c) while the program goes on; calls wait where CUDA's
 * do. A fault inside a kernel does not fail the launch call; it poisons the context, and every
 * later call returns that error until cudaDeviceReset.
 */
#ifndef PTXSIM_RUNTIME_RT_H
#define PTXSIM_RUNTIME_RT_H

#include <cuda_runtime_api.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_PTXSIM_VERSION "0.1.0"

/* ---------------------------------------------------------------- options
 * One table of every option: `ptxsim run --NAME=VALUE` sets the environment variable ENV,
 * which the runtime reads when the application first calls into it. */

typedef enum rt_option_kind {
    RT_OPT_CHOICE,   /* one of `choices` ("a|b|c") */
    RT_OPT_UINT,     /* a non-negative integer, or "auto" where the default is "auto" */
    RT_OPT_BOOL,     /* on/off (also 1/0, yes/no, true/false) */
    RT_OPT_TEXT,     /* free text (a file name, a specification) */
    RT_OPT_LIST      /* a comma list of `choices` ("racecheck,initcheck") */
} rt_option_kind;

typedef struct rt_option {
    const char *name;         /* command-line spelling: --name=value */
    const char *env;          /* PTXSIM_... */
    const char *def;          /* default, as text */
    rt_option_kind kind;
    const char *choices;      /* RT_OPT_CHOICE and RT_OPT_LIST: "interp|jit" */
    const char *implemented;  /* values that work today ("interp"); NULL = all */
    const char *flag_value;   /* value of a bare --name, or NULL when a value is required */
    const char *help;
} rt_option;

extern const rt_option rt_options[];
extern const size_t rt_option_count;

const rt_option *rt_option_find(const char *name);
/* Checks that `value` is valid for the option and built today; false with a one-line reason in
 * err ("this mode is not built yet (accepted: off, gpudet)") that lists what is accepted. */
bool rt_option_check(const rt_option *opt, const char *value, char *err, size_t errlen);
/* Does a valid `value` work today? (A value that does not is refused: by the shim before the
 * program's main, by `ptxsim run`, and by `ptxsim sweep` before anything runs.) */
bool rt_option_implemented(const rt_option *opt, const char *value);

/* ---------------------------------------------------------------- contexts (context.c)
 * The driver API's contexts: the device's primary context (the runtime API's) and contexts a
 * program creates, with each host thread's stack of current contexts. They share the one
 * device; a context owns the memory and modules made while it was current. */

typedef struct rt_context rt_context;
typedef struct rt_module rt_module;

rt_context *rt_ctx_primary(void);
/* The thread's current context, or NULL. */
rt_context *rt_ctx_current(void);
bool rt_ctx_live(const rt_context *c);
bool rt_ctx_is_primary(const rt_context *c);
unsigned rt_ctx_flags(const rt_context *c);
unsigned long long rt_ctx_id(const rt_context *c);
/* Creates a context and makes it current (pushes it). */
cudaError_t rt_ctx_create(rt_context **out, unsigned flags);
/* Waits for the device, frees what the context owns, and pops it from this thread's stack;
 * cudaErrorInvalidValue for the primary context or a dead handle. */
cudaError_t rt_ctx_destroy(rt_context *c);
cudaError_t rt_ctx_push(rt_context *c);
cudaError_t rt_ctx_pop(rt_context **out);
/* Replaces the top of the stack (NULL: pops it). */
cudaError_t rt_ctx_set_current(rt_context *c);
cudaError_t rt_ctx_set_flags(rt_context *c, unsigned flags);
void rt_primary_retain(void);
/* The last release of a primary context the runtime API never used frees what it owns. */
cudaError_t rt_primary_release(void);
void rt_primary_state(unsigned *flags, int *active);

/* ---------------------------------------------------------------- modules the driver API
 * loads (jit.c): PTX text, fatbins, and ELF files carrying fatbins; their kernels are
 * rt_kernel handles (CUfunction, CUkernel, cudaFunction_t and cudaKernel_t alike), usable by
 * every launch call. */

/* image: NUL-terminated PTX, a fatbin (or several back to back, as rt_linker_complete writes),
 * a fatbin wrapper, or an ELF cubin (which holds no PTX: refused with a hint). name: for
 * messages (NULL: a made-up one). api: the call, for messages. */
cudaError_t rt_module_load_image(rt_module **out, const void *image, const char *name,
                                 const char *api);
cudaError_t rt_module_load_file(rt_module **out, const char *path, const char *api);
cudaError_t rt_module_unload(rt_module *m, const char *api);
bool rt_module_live(const rt_module *m);
/* The entry `name` (mangled, as in the PTX): cudaErrorSymbolNotFound when absent. */
cudaError_t rt_module_get_function(void **fn, rt_module *m, const char *name);
/* A module-scope variable: its device address and size (cudaErrorSymbolNotFound when absent). */
cudaError_t rt_module_get_global(void **dptr, size_t *bytes, rt_module *m, const char *name);
/* Its kernels (fns NULL: only the count), in PTX order. */
cudaError_t rt_module_get_functions(rt_module *m, void **fns, unsigned *count);
/* What a kernel handle is: its module, its PTX (mangled) name. */
cudaError_t rt_kernel_info(const void *func, rt_module **mod, const char **name);
/* Parameter index of a kernel: its offset and size in the parameter block (cudaErrorInvalidValue
 * past the last). */
cudaError_t rt_kernel_param_info(const void *func, size_t index, size_t *offset, size_t *size);
/* A kernel handle for a registered host function (cudaGetFuncBySymbol). */
cudaError_t rt_get_func_by_symbol(void **fn, const void *symbol);
/* Records the PTX a cubin was compiled from (an NVRTC program compiled for a real
 * architecture also compiled for the virtual one), so loading that cubin loads the PTX. */
void rt_register_cubin_ptx(const void *cubin, size_t size, const char *ptx);

/* The JIT linker (cuLinkCreate and friends): PTX inputs, fatbins and ELF objects holding PTX;
 * completing parses, links (every extern resolved) and writes an image rt_module_load_image
 * takes. log: a line for the caller's error log when something fails. */
typedef struct rt_linker rt_linker;
cudaError_t rt_linker_create(rt_linker **out);
cudaError_t rt_linker_add_data(rt_linker *l, int type, const void *data, size_t size,
                               const char *name, char *log, size_t loglen);
cudaError_t rt_linker_add_file(rt_linker *l, int type, const char *path, char *log,
                               size_t loglen);
/* The image stays owned by the linker, valid until rt_linker_destroy. */
cudaError_t rt_linker_complete(rt_linker *l, void **image, size_t *size, char *log,
                               size_t loglen);
void rt_linker_destroy(rt_linker *l);
/* The input types of cuLinkAddData (CUjitInputType). */
enum { RT_LINK_CUBIN = 0, RT_LINK_PTX, RT_LINK_FATBINARY, RT_LINK_OBJECT, RT_LINK_LIBRARY,
       RT_LINK_NVVM };

/* Checks every PTXSIM_* variable of the environment (a bad value, a mode not built, a name that
 * is no option); false with the first problem in err. The shim runs it before the program's
 * main and exits with status 2 on failure; `ptxsim run` runs it before starting the program. */
bool rt_config_check_environment(char *err, size_t errlen);
/* Every output file an option names (--stats=FILE, --timeline, --check-report, --record,
 * --trace) can be written, and --replay's file read: each output is created if absent (left as
 * it is otherwise), so that a path that cannot be written is refused before the program runs,
 * not found out at its exit, when its status is decided. Run after
 * rt_config_check_environment, by the same two callers. */
bool rt_config_check_files(char *err, size_t errlen);

/* ---------------------------------------------------------------- registration (nvcc ABI) */

void **rt_register_fatbin(const void *wrapper);
void rt_register_fatbin_end(void **handle);
void rt_unregister_fatbin(void **handle);
void rt_register_function(void **handle, const void *host_fun, const char *device_name);
void rt_register_var(void **handle, const void *host_var, const char *device_name, size_t size,
                     bool constant, bool ext);
void rt_register_managed_var(void **handle, void **host_ptr_addr, const char *device_name,
                             size_t size);
/* Loads the module now (parse + load); true when it is usable. */
bool rt_init_module(void **handle);

/* What ptxas would refuse in a loaded module (module_limits.c): constant data, static shared,
 * local (with spilled registers) and parameter space beyond the device's limits. cudaSuccess,
 * or cudaErrorInvalidPtx with ptxas's message in err. Every module load runs it; so does
 * `ptxsim ptx --load`. */
struct ptx_module;
struct emu_module;
cudaError_t rt_check_module_limits(const struct ptx_module *m, const struct emu_module *em,
                                   char *err, size_t errlen);

/* ---------------------------------------------------------------- launches */

unsigned rt_push_call_config(dim3 grid, dim3 block, size_t smem, cudaStream_t stream);
cudaError_t rt_pop_call_config(dim3 *grid, dim3 *block, size_t *smem, cudaStream_t *stream);
cudaError_t rt_get_kernel(cudaKernel_t *kernel, const void *host_fun);
/* func: a registered host function or a cudaKernel_t from rt_get_kernel. */
cudaError_t rt_launch(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                      cudaStream_t stream);
/* Every block resident at once, for grid-wide synchronisation (cudaErrorCooperativeLaunchTooLarge
 * when the grid exceeds what the device holds). */
cudaError_t rt_launch_cooperative(const void *func, dim3 grid, dim3 block, void **args,
                                  size_t smem, cudaStream_t stream);
cudaError_t rt_launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args);
/* The driver API's launch: arguments as pointers (args) or a packed buffer (extra:
 * CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE); attrs as cudaLaunchKernelEx takes them. */
cudaError_t rt_launch_driver(const void *func, dim3 grid, dim3 block, size_t smem,
                             cudaStream_t stream, void **args, void **extra,
                             const cudaLaunchAttribute *attrs, unsigned nattrs, bool cooperative,
                             const char *api);
/* The pre-CUDA-9 launch: configure, set up each argument at its offset, launch. */
cudaError_t rt_configure_call(dim3 grid, dim3 block, size_t smem, cudaStream_t stream);
cudaError_t rt_setup_argument(const void *arg, size_t size, size_t offset);
cudaError_t rt_launch_legacy(const void *func);
cudaError_t rt_func_get_attributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t rt_func_set_attribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t rt_func_set_cache_config(const void *func, enum cudaFuncCache config);
cudaError_t rt_occupancy_max_blocks(int *num_blocks, const void *func, int block_size,
                                    size_t dynamic_smem, unsigned flags);
/* Dynamic shared memory a block may have so that num_blocks blocks of block_size threads fit
 * on one SM (cudaOccupancyAvailableDynamicSMemPerBlock). */
cudaError_t rt_occupancy_available_smem(size_t *smem, const void *func, int num_blocks,
                                        int block_size);

/* ---------------------------------------------------------------- memory
 * Copies and fills take the stream they are issued to (0 for the synchronous calls) and the
 * name of the API call, for messages and to tell the asynchronous forms ("...Async") from the
 * synchronous ones; on a capturing stream they are recorded, not run. */

cudaError_t rt_malloc(void **ptr, size_t size);
cudaError_t rt_malloc_managed(void **ptr, size_t size, unsigned flags);
cudaError_t rt_malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t rt_malloc_3d(struct cudaPitchedPtr *ptr, struct cudaExtent extent);
cudaError_t rt_free(void *ptr);
cudaError_t rt_host_alloc(void **ptr, size_t size, unsigned flags);
cudaError_t rt_free_host(void *ptr);
cudaError_t rt_host_register(void *ptr, size_t size, unsigned flags);
cudaError_t rt_host_unregister(void *ptr);
cudaError_t rt_host_get_device_pointer(void **dev, void *host, unsigned flags);
cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                      cudaStream_t stream, const char *api);
cudaError_t rt_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind, cudaStream_t stream,
                         const char *api);
cudaError_t rt_memcpy_3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream,
                         const char *api);
cudaError_t rt_memcpy_3d_peer(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream,
                              const char *api);
cudaError_t rt_memcpy_peer(void *dst, int dst_device, const void *src, int src_device,
                           size_t count, cudaStream_t stream, const char *api);
/* 2D copies with an array on either side (NULL array: the pointer and pitch serve); x offsets
 * and width in bytes, y offsets and height in rows. */
cudaError_t rt_memcpy_2d_array(cudaArray_t dst, size_t dx, size_t dy, void *dptr, size_t dpitch,
                               cudaArray_const_t src, size_t sx, size_t sy, const void *sptr,
                               size_t spitch, size_t width, size_t height,
                               enum cudaMemcpyKind kind, cudaStream_t stream, const char *api);
/* The deprecated 1D array copies: count bytes from (x bytes, row y) on. */
cudaError_t rt_memcpy_array_linear(cudaArray_t dst, size_t dx, size_t dy, void *dptr,
                                   cudaArray_const_t src, size_t sx, size_t sy, const void *sptr,
                                   size_t count, enum cudaMemcpyKind kind, cudaStream_t stream,
                                   const char *api);
cudaError_t rt_memset(void *ptr, int value, size_t count, cudaStream_t stream, const char *api);
/* A fill of height rows of width elements of elem bytes (1, 2 or 4) with value: the driver's
 * cuMemsetD8/D16/D32 and their 2D forms. */
cudaError_t rt_memset_elems(void *ptr, size_t pitch, uint32_t value, unsigned elem, size_t width,
                            size_t height, cudaStream_t stream, const char *api);
/* A 3D fill of width bytes x height rows x depth slices (2D: depth 1); ysize: rows per slice
 * (0 = height). */
cudaError_t rt_memset_3d(void *ptr, size_t pitch, size_t ysize, int value, size_t width,
                         size_t height, size_t depth, cudaStream_t stream, const char *api);
cudaError_t rt_memcpy_to_symbol(const void *symbol, const void *src, size_t count,
                                size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream,
                                const char *api);
cudaError_t rt_memcpy_from_symbol(void *dst, const void *symbol, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind, cudaStream_t stream, const char *api);
cudaError_t rt_get_symbol_address(void **addr, const void *symbol);
cudaError_t rt_get_symbol_size(size_t *size, const void *symbol);
cudaError_t rt_mem_get_info(size_t *free_bytes, size_t *total_bytes);
/* The allocation holding ptr: its start and size (cuMemGetAddressRange); cudaErrorInvalidValue
 * when ptr is in none. */
cudaError_t rt_mem_range(const void *ptr, void **base, size_t *size);
cudaError_t rt_pointer_get_attributes(struct cudaPointerAttributes *attr, const void *ptr);

/* Arrays: linear storage with their channel description (texture sampling is elsewhere). */
cudaError_t rt_malloc_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned flags);
cudaError_t rt_malloc_3d_array(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                               struct cudaExtent extent, unsigned flags);
cudaError_t rt_free_array(cudaArray_t array);
cudaError_t rt_array_get_info(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                              unsigned *flags, cudaArray_const_t array);
cudaError_t rt_get_channel_desc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
cudaError_t rt_malloc_mipmapped_array(cudaMipmappedArray_t *out,
                                      const struct cudaChannelFormatDesc *desc,
                                      struct cudaExtent extent, unsigned nlevels, unsigned flags);
cudaError_t rt_get_mipmapped_array_level(cudaArray_t *level, cudaMipmappedArray_const_t mm,
                                         unsigned index);
cudaError_t rt_free_mipmapped_array(cudaMipmappedArray_t mm);

/* Texture and surface objects (textures.c): the emulator samples them by handle. */
cudaError_t rt_create_texture_object(cudaTextureObject_t *obj, const struct cudaResourceDesc *res,
                                     const struct cudaTextureDesc *tex,
                                     const struct cudaResourceViewDesc *view);
cudaError_t rt_destroy_texture_object(cudaTextureObject_t obj);
cudaError_t rt_get_texture_object_desc(cudaTextureObject_t obj, struct cudaResourceDesc *res,
                                       struct cudaTextureDesc *tex,
                                       struct cudaResourceViewDesc *view, const char *api);
cudaError_t rt_create_surface_object(cudaSurfaceObject_t *obj, const struct cudaResourceDesc *res);
cudaError_t rt_destroy_surface_object(cudaSurfaceObject_t obj);
cudaError_t rt_get_surface_object_desc(cudaSurfaceObject_t obj, struct cudaResourceDesc *res);
cudaError_t rt_texture_1d_linear_max_width(size_t *width, const struct cudaChannelFormatDesc *fmt,
                                           int device);

/* Texture and surface references (texrefs.c): CUDA 11's texture<> and surface<> variables, which
 * PTX names as .texref / .surfref. CUDA 12 removed them from its headers; these are the CUDA 11
 * layouts a CUDA 11 program passes (texture<T, dim, mode> derives from textureReference). */
struct textureReference {
    int normalized;
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureAddressMode addressMode[3];
    struct cudaChannelFormatDesc channelDesc;
    int sRGB;
    unsigned maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int __cudaReserved[14];
};
struct surfaceReference {
    struct cudaChannelFormatDesc channelDesc;
};
/* __cudaRegisterTexture / __cudaRegisterSurface: dim is the texture type (1, 2, 3, or a
 * cudaTextureType* layered/cubemap value), norm the read mode (1: cudaReadModeNormalizedFloat). */
void rt_register_texture(void **handle, const struct textureReference *ref,
                         const char *device_name, int dim, int norm, int ext);
void rt_register_surface(void **handle, const struct surfaceReference *ref,
                         const char *device_name, int dim, int ext);
cudaError_t rt_bind_texture(size_t *offset, const struct textureReference *ref,
                            const void *dev_ptr, const struct cudaChannelFormatDesc *desc,
                            size_t size);
cudaError_t rt_bind_texture_2d(size_t *offset, const struct textureReference *ref,
                               const void *dev_ptr, const struct cudaChannelFormatDesc *desc,
                               size_t width, size_t height, size_t pitch);
cudaError_t rt_bind_texture_to_array(const struct textureReference *ref, cudaArray_const_t array,
                                     const struct cudaChannelFormatDesc *desc);
cudaError_t rt_bind_texture_to_mipmapped_array(const struct textureReference *ref,
                                               cudaMipmappedArray_const_t mm,
                                               const struct cudaChannelFormatDesc *desc);
cudaError_t rt_unbind_texture(const struct textureReference *ref);
cudaError_t rt_get_texture_reference(const struct textureReference **ref, const void *symbol);
cudaError_t rt_get_texture_alignment_offset(size_t *offset, const struct textureReference *ref);
cudaError_t rt_bind_surface_to_array(const struct surfaceReference *ref, cudaArray_const_t array,
                                     const struct cudaChannelFormatDesc *desc);
cudaError_t rt_get_surface_reference(const struct surfaceReference **ref, const void *symbol);

/* Stream-ordered allocation and memory pools (pool NULL: the device's current pool). */
cudaError_t rt_malloc_async(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream);
cudaError_t rt_free_async(void *ptr, cudaStream_t stream);
cudaError_t rt_device_get_mem_pool(cudaMemPool_t *pool, int device, bool default_one);
cudaError_t rt_device_set_mem_pool(int device, cudaMemPool_t pool);
cudaError_t rt_mem_pool_create(cudaMemPool_t *pool, const struct cudaMemPoolProps *props);
cudaError_t rt_mem_pool_destroy(cudaMemPool_t pool);
cudaError_t rt_mem_pool_trim_to(cudaMemPool_t pool, size_t keep);
cudaError_t rt_mem_pool_attribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value,
                                  bool set);
cudaError_t rt_mem_pool_access(cudaMemPool_t pool, enum cudaMemAccessFlags *flags,
                               const struct cudaMemAccessDesc *descs, size_t count, bool set);

/* ---------------------------------------------------------------- streams and events */

cudaError_t rt_stream_create(cudaStream_t *stream, unsigned flags, int priority);
cudaError_t rt_stream_destroy(cudaStream_t stream);
cudaError_t rt_stream_synchronize(cudaStream_t stream);
cudaError_t rt_stream_query(cudaStream_t stream);
cudaError_t rt_stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags);
cudaError_t rt_stream_get_flags(cudaStream_t stream, unsigned *flags);
cudaError_t rt_stream_get_priority(cudaStream_t stream, int *priority);
cudaError_t rt_stream_add_callback(cudaStream_t stream, cudaStreamCallback_t cb, void *data,
                                   unsigned flags);
cudaError_t rt_launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *data);
/* Checks a stream handle (0, cudaStreamLegacy, cudaStreamPerThread or a live stream). */
cudaError_t rt_stream_check(cudaStream_t stream);
cudaError_t rt_stream_get_id(cudaStream_t stream, unsigned long long *id);
/* cudaStreamGetAttribute / cudaStreamSetAttribute (set: value is read). */
cudaError_t rt_stream_attribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                cudaLaunchAttributeValue *value, bool set);
cudaError_t rt_stream_copy_attributes(cudaStream_t dst, cudaStream_t src);
cudaError_t rt_event_create(cudaEvent_t *event, unsigned flags);
cudaError_t rt_event_destroy(cudaEvent_t event);
cudaError_t rt_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags);
cudaError_t rt_event_synchronize(cudaEvent_t event);
cudaError_t rt_event_query(cudaEvent_t event);
cudaError_t rt_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t end);

/* Stream capture (capture.c). */
cudaError_t rt_stream_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t rt_stream_begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             enum cudaStreamCaptureMode mode);
cudaError_t rt_stream_end_capture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t rt_stream_is_capturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
cudaError_t rt_stream_get_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                       unsigned long long *id, cudaGraph_t *graph,
                                       const cudaGraphNode_t **deps, size_t *ndeps);
cudaError_t rt_stream_update_capture_dependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                                  size_t n, unsigned flags);
cudaError_t rt_thread_exchange_capture_mode(enum cudaStreamCaptureMode *mode);

/* ---------------------------------------------------------------- graphs (graph.c) */

cudaError_t rt_graph_create(cudaGraph_t *graph, unsigned flags);
cudaError_t rt_graph_destroy(cudaGraph_t graph);
cudaError_t rt_graph_clone(cudaGraph_t *clone, cudaGraph_t graph);
cudaError_t rt_graph_node_find_in_clone(cudaGraphNode_t *out, cudaGraphNode_t original,
                                        cudaGraph_t clone);
cudaError_t rt_graph_add_kernel_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaKernelNodeParams *p);
cudaError_t rt_graph_add_memcpy_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaMemcpy3DParms *p);
cudaError_t rt_graph_add_memcpy_node_1d(cudaGraphNode_t *node, cudaGraph_t graph,
                                        const cudaGraphNode_t *deps, size_t ndeps, void *dst,
                                        const void *src, size_t count, enum cudaMemcpyKind kind);
/* to: into the symbol (ptr is the source), else out of it. */
cudaError_t rt_graph_add_memcpy_node_symbol(cudaGraphNode_t *node, cudaGraph_t graph,
                                            const cudaGraphNode_t *deps, size_t ndeps,
                                            const void *symbol, void *ptr, size_t count,
                                            size_t offset, enum cudaMemcpyKind kind, bool to);
cudaError_t rt_graph_add_memset_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t ndeps,
                                     const struct cudaMemsetParams *p);
cudaError_t rt_graph_add_host_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t ndeps,
                                   const struct cudaHostNodeParams *p);
cudaError_t rt_graph_add_empty_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t ndeps);
cudaError_t rt_graph_add_child_graph_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                          const cudaGraphNode_t *deps, size_t ndeps,
                                          cudaGraph_t child);
cudaError_t rt_graph_add_event_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                    const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event,
                                    bool record);
/* Get (set false) or set a node's parameters: params points to the structure of its type
 * (cudaKernelNodeParams, cudaMemcpy3DParms, cudaMemsetParams, cudaHostNodeParams, a
 * cudaEvent_t, or a cudaGraph_t for a child graph's get). */
cudaError_t rt_graph_node_params(cudaGraphNode_t node, enum cudaGraphNodeType type, void *params,
                                 bool set, const char *api);
cudaError_t rt_graph_node_get_type(cudaGraphNode_t node, enum cudaGraphNodeType *type);
/* cudaGraphKernelNodeGetAttribute / SetAttribute (set: value is read), CopyAttributes. */
cudaError_t rt_graph_kernel_node_attribute(cudaGraphNode_t node, cudaLaunchAttributeID attr,
                                           cudaLaunchAttributeValue *value, bool set);
cudaError_t rt_graph_kernel_node_copy_attributes(cudaGraphNode_t dst, cudaGraphNode_t src);
cudaError_t rt_graph_get_nodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count,
                               bool roots);
cudaError_t rt_graph_get_edges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                               cudaGraphEdgeData *edge_data, size_t *count);
cudaError_t rt_graph_node_get_edges(cudaGraphNode_t node, cudaGraphNode_t *out,
                                    cudaGraphEdgeData *edge_data, size_t *count, bool dependents);
cudaError_t rt_graph_dependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                  const cudaGraphNode_t *to, size_t n, bool add);
cudaError_t rt_graph_destroy_node(cudaGraphNode_t node);
cudaError_t rt_graph_instantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags);
cudaError_t rt_graph_exec_destroy(cudaGraphExec_t exec);
cudaError_t rt_graph_exec_get_flags(cudaGraphExec_t exec, unsigned long long *flags);
cudaError_t rt_graph_launch(cudaGraphExec_t exec, cudaStream_t stream, bool upload_only);
cudaError_t rt_graph_exec_node_params(cudaGraphExec_t exec, cudaGraphNode_t node,
                                      enum cudaGraphNodeType type, const void *params,
                                      const char *api);
cudaError_t rt_graph_node_enabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned *enabled,
                                  bool set);
cudaError_t rt_graph_exec_update(cudaGraphExec_t exec, cudaGraph_t graph,
                                 cudaGraphExecUpdateResultInfo *info);
cudaError_t rt_graph_debug_dot_print(cudaGraph_t graph, const char *path, unsigned flags);

/* ---------------------------------------------------------------- device */

cudaError_t rt_get_device_count(int *count);
cudaError_t rt_set_device(int device);
cudaError_t rt_get_device(int *device);
cudaError_t rt_get_device_properties(struct cudaDeviceProp *prop, int device);
cudaError_t rt_device_get_attribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t rt_device_synchronize(void);
/* cudaCtxResetPersistingL2Cache: persisting lines back to normal (no cache to act on yet). */
cudaError_t rt_ctx_reset_persisting_l2(void);
cudaError_t rt_device_reset(void);
cudaError_t rt_set_device_flags(unsigned flags);
cudaError_t rt_get_device_flags(unsigned *flags);
cudaError_t rt_device_set_limit(enum cudaLimit limit, size_t value);
cudaError_t rt_device_get_limit(size_t *value, enum cudaLimit limit);
cudaError_t rt_driver_get_version(int *version);
cudaError_t rt_runtime_get_version(int *version);
/* The major version of the CUDA runtime the program was built for, when older than 13 (the
 * shim answers as libcudart.so.12 or .so.11.0, or redirects a CUDA 12 static runtime): where
 * that runtime answered a call otherwise than CUDA 13's, its programs get its answer. */
void rt_set_program_runtime_major(int major);
cudaError_t rt_choose_device(int *device, const struct cudaDeviceProp *prop);

/* ---------------------------------------------------------------- tensor maps (driver API)
 * The driver functions CUDA programs reach through cudaGetDriverEntryPoint to build TMA
 * descriptors (CUtensorMap), with cuda.h's enum arguments as plain integers. Each checks its
 * arguments as the driver does, writes emulator/emu.h's emu_tensor_map into the 128 bytes, and
 * returns a CUresult: CUDA_SUCCESS, or CUDA_ERROR_INVALID_VALUE. */
int rt_tensor_map_encode_tiled(void *map, unsigned dtype, uint32_t rank, void *global_address,
                               const uint64_t *global_dim, const uint64_t *global_strides,
                               const uint32_t *box_dim, const uint32_t *element_strides,
                               unsigned interleave, unsigned swizzle, unsigned l2_promotion,
                               unsigned oob_fill);
int rt_tensor_map_encode_im2col(void *map, unsigned dtype, uint32_t rank, void *global_address,
                                const uint64_t *global_dim, const uint64_t *global_strides,
                                const int *lower_corner, const int *upper_corner,
                                uint32_t channels_per_pixel, uint32_t pixels_per_column,
                                const uint32_t *element_strides, unsigned interleave,
                                unsigned swizzle, unsigned l2_promotion, unsigned oob_fill);
int rt_tensor_map_replace_address(void *map, void *global_address);
/* The checks of cudaGetDriverEntryPoint(ByVersion) before the lookup (symbol and funcPtr given,
 * known flags, a version the driver has: cuda_version 0 means the current one); records a
 * failure as the last error. */
cudaError_t rt_driver_entry_check(const char *symbol, void **fn, unsigned cuda_version,
                                  unsigned long long flags);

/* ---------------------------------------------------------------- errors */

const char *rt_error_name(cudaError_t err);
const char *rt_error_string(cudaError_t err);
cudaError_t rt_get_last_error(void);
cudaError_t rt_peek_last_error(void);
/* Sets this thread's last error to e and returns what it was (the driver API's calls into the
 * runtime leave the runtime's last error as they found it). */
cudaError_t rt_swap_last_error(cudaError_t e);
/* The names of errors in ptxsim's messages on this thread: NULL for the runtime's
 * (cudaErrorInvalidValue); the driver shim installs CUresult names around its calls. Returns the
 * previous one. */
typedef const char *(*rt_error_namer)(cudaError_t err);
rt_error_namer rt_swap_error_namer(rt_error_namer n);
/* An entry point ptxsim does not implement: says so once on stderr, naming the function, and
 * returns cudaErrorNotSupported (recorded as the last error). */
cudaError_t rt_unsupported(const char *function);

#endif
