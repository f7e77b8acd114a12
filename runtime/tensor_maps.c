/* tensor_maps.c: the driver's tensor-map encoders (cuTensorMapEncodeTiled,
 * cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress) that programs reach through
 * cudaGetDriverEntryPoint, and that lookup's argument checks.
 *
 * The driver's descriptor format is undocumented; ptxsim writes its own (emu_tensor_map in
 * emulator/emu.h) into the program's 128-byte CUtensorMap, and the emulator reads it back when a
 * kernel names the map. What must match the driver is which arguments are refused: every rule
 * of cuda.h's documentation of the three functions is checked here, and a refused call leaves
 * the map untouched.
 */
#include "emulator/emu.h"
#include "runtime/rt_internal.h"

#include <cuda.h>
#include <string.h>

/* Bytes per element of each CUtensorMapDataType; 0 for the packed 4- and 6-bit types. */
static int elem_bytes(unsigned dtype)
{
    switch (dtype) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8: return 1;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16: return 2;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return 4;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: return 8;
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B:
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B:
    case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: return 0;
    default: return -1;
    }
}

static bool is_float(unsigned dtype)
{
    switch (dtype) {
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16: case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64: case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ: case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ: return true;
    default: return false;
    }
}

static bool packed16(unsigned dtype)
{
    return dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ||
           dtype == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
}

/* The checks both encoders share (everything but the box): fills the common fields of m. */
static bool common_checks(emu_tensor_map *m, void *map, unsigned dtype, uint32_t rank,
                          uint32_t min_rank, void *global_address, const uint64_t *global_dim,
                          const uint64_t *global_strides, const uint32_t *element_strides,
                          unsigned interleave, unsigned swizzle, unsigned l2_promotion,
                          unsigned oob_fill)
{
    int eb = elem_bytes(dtype);
    /* The map's own alignment (64 bytes) matters where a kernel reads it (exec_tensor.c checks
     * it there); the 580 driver encodes into a map 8 bytes off without a word (an H100,
     * 2026-11-27), so the encoder does too. */
    if (!map || eb < 0) return false;
    if (rank < min_rank || rank > EMU_TENSOR_MAP_MAX_RANK) return false;
    if (interleave > CU_TENSOR_MAP_INTERLEAVE_32B || swizzle > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B ||
        l2_promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B ||
        oob_fill > CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)
        return false;
    if (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && rank < 3) return false;
    /* CUDA's reference asks a 32B interleave to go with the 32B swizzle, but the 580 driver
     * encodes a rank-3 map with the 32B interleave and no swizzle (an H100, 2026-11-27): as the
     * driver does. */
    if (oob_fill && (!is_float(dtype) || eb == 0)) return false;
    if (dtype == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B &&
        (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE ||
         !(swizzle == CU_TENSOR_MAP_SWIZZLE_NONE || swizzle == CU_TENSOR_MAP_SWIZZLE_128B ||
           swizzle == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ||
           swizzle == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)))
        return false;
    if (dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B &&
        !(swizzle == CU_TENSOR_MAP_SWIZZLE_NONE || swizzle == CU_TENSOR_MAP_SWIZZLE_128B ||
          swizzle == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B))
        return false;
    uint64_t align = (interleave == CU_TENSOR_MAP_INTERLEAVE_32B || packed16(dtype)) ? 32 : 16;
    if (!global_address || (uintptr_t)global_address % align) return false;
    if (!global_dim || !element_strides || (rank > 1 && !global_strides)) return false;
    for (uint32_t i = 0; i < rank; i++) {
        if (global_dim[i] == 0 || global_dim[i] > (UINT64_C(1) << 32)) return false;
        if (element_strides[i] == 0 || element_strides[i] > 8) return false;
    }
    if (packed16(dtype) && global_dim[0] % 128) return false;
    if (dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && global_dim[0] % 2) return false;
    for (uint32_t i = 0; i + 1 < rank; i++)
        if (global_strides[i] % align || global_strides[i] >= (UINT64_C(1) << 40)) return false;

    memset(m, 0, sizeof *m);
    m->magic = EMU_TENSOR_MAP_MAGIC;
    m->dtype = (uint8_t)dtype;
    m->rank = (uint8_t)rank;
    m->interleave = (uint8_t)interleave;
    m->swizzle = (uint8_t)swizzle;
    m->l2_promotion = (uint8_t)l2_promotion;
    m->oob_fill = (uint8_t)oob_fill;
    m->elem_bytes = (uint8_t)eb;
    m->global_address = (uint64_t)(uintptr_t)global_address;
    for (uint32_t i = 0; i < rank; i++) {
        m->global_dim[i] = global_dim[i];
        m->element_stride[i] = (uint8_t)element_strides[i];
        if (i + 1 < rank) m->global_stride[i] = global_strides[i];
    }
    return true;
}

/* The inner extent in bytes a swizzle mode allows (interleave none), 0 for no limit. */
static uint32_t swizzle_span(unsigned swizzle)
{
    switch (swizzle) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_NONE: return 0;
    default: return 128;
    }
}

/* Bytes of n elements of the map's type (packed types: 16 values fill 8, 16 or 16 bytes). */
static uint64_t row_bytes(const emu_tensor_map *m, uint64_t n)
{
    if (m->elem_bytes) return n * m->elem_bytes;
    return m->dtype == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B ? n / 2 : n / 16 * 16;
}

int rt_tensor_map_encode_tiled(void *map, unsigned dtype, uint32_t rank, void *global_address,
                               const uint64_t *global_dim, const uint64_t *global_strides,
                               const uint32_t *box_dim, const uint32_t *element_strides,
                               unsigned interleave, unsigned swizzle, unsigned l2_promotion,
                               unsigned oob_fill)
{
    emu_tensor_map m;
    if (!common_checks(&m, map, dtype, rank, 1, global_address, global_dim, global_strides,
                       element_strides, interleave, swizzle, l2_promotion, oob_fill) ||
        !box_dim)
        return CUDA_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; i < rank; i++) {
        if (box_dim[i] == 0 || box_dim[i] > 256) return CUDA_ERROR_INVALID_VALUE;
        m.box_dim[i] = (uint16_t)box_dim[i];
    }
    if (packed16(dtype) && box_dim[0] != 128) return CUDA_ERROR_INVALID_VALUE;
    if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
        uint64_t inner = row_bytes(&m, box_dim[0]);
        if (inner % 16) return CUDA_ERROR_INVALID_VALUE;
        uint32_t span = swizzle_span(swizzle);
        if (span && inner > span) return CUDA_ERROR_INVALID_VALUE;
    }
    memcpy(map, &m, sizeof m);
    return CUDA_SUCCESS;
}

int rt_tensor_map_encode_im2col(void *map, unsigned dtype, uint32_t rank, void *global_address,
                                const uint64_t *global_dim, const uint64_t *global_strides,
                                const int *lower_corner, const int *upper_corner,
                                uint32_t channels_per_pixel, uint32_t pixels_per_column,
                                const uint32_t *element_strides, unsigned interleave,
                                unsigned swizzle, unsigned l2_promotion, unsigned oob_fill)
{
    emu_tensor_map m;
    if (!common_checks(&m, map, dtype, rank, 3, global_address, global_dim, global_strides,
                       element_strides, interleave, swizzle, l2_promotion, oob_fill) ||
        !lower_corner || !upper_corner)
        return CUDA_ERROR_INVALID_VALUE;
    /* the corners of the rank-2 spatial dimensions, W first (dimension 1): [-2^15, 2^15-1] for
     * 3D, [-2^7, 2^7-1] for 4D, [-2^4, 2^4-1] for 5D */
    int lim = rank == 3 ? 1 << 15 : rank == 4 ? 1 << 7 : 1 << 4;
    for (uint32_t i = 0; i + 2 < rank; i++) {
        if (lower_corner[i] < -lim || lower_corner[i] > lim - 1 || upper_corner[i] < -lim ||
            upper_corner[i] > lim - 1)
            return CUDA_ERROR_INVALID_VALUE;
        /* the bounding box, dimension i+1 from lower to size-1+upper, must not be empty */
        if ((int64_t)global_dim[i + 1] + upper_corner[i] - lower_corner[i] <= 0)
            return CUDA_ERROR_INVALID_VALUE;
        m.lower_corner[i] = (int16_t)lower_corner[i];
        m.upper_corner[i] = (int16_t)upper_corner[i];
    }
    if (channels_per_pixel == 0 || channels_per_pixel > 256 || pixels_per_column == 0 ||
        pixels_per_column > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
        uint64_t inner = row_bytes(&m, channels_per_pixel);
        if (inner % 16) return CUDA_ERROR_INVALID_VALUE;
        uint32_t span = swizzle_span(swizzle);
        if (span && inner > span) return CUDA_ERROR_INVALID_VALUE;
    }
    m.im2col = 1;
    m.channels_per_pixel = (uint16_t)channels_per_pixel;
    m.pixels_per_column = (uint16_t)pixels_per_column;
    memcpy(map, &m, sizeof m);
    return CUDA_SUCCESS;
}

int rt_tensor_map_replace_address(void *map, void *global_address)
{
    emu_tensor_map m;
    if (!map || (uintptr_t)map % 64) return CUDA_ERROR_INVALID_VALUE;
    memcpy(&m, map, sizeof m);
    if (m.magic != EMU_TENSOR_MAP_MAGIC) return CUDA_ERROR_INVALID_VALUE;
    uint64_t align = (m.interleave == CU_TENSOR_MAP_INTERLEAVE_32B || packed16(m.dtype)) ? 32 : 16;
    if (!global_address || (uintptr_t)global_address % align) return CUDA_ERROR_INVALID_VALUE;
    m.global_address = (uint64_t)(uintptr_t)global_address;
    memcpy(map, &m, sizeof m);
    return CUDA_SUCCESS;
}

cudaError_t rt_driver_entry_check(const char *symbol, void **fn, unsigned cuda_version,
                                  unsigned long long flags)
{
    rt_init();
    if (!symbol || !fn) return rt_record(cudaErrorInvalidValue);
    if (flags & ~(unsigned long long)(cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream))
        return rt_record(cudaErrorInvalidValue);
    if (cuda_version > CUDART_VERSION) return rt_record(cudaErrorInvalidValue);
    return cudaSuccess;
}
