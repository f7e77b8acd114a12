// A source heavy in CUB and Thrust algorithms: its PTX is the large, template-rich kind that
// real projects feed ptxsim, and the parse-speed benchmark's main input.
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

void algorithms(thrust::device_vector<float> &x, thrust::device_vector<float> &y,
                thrust::device_vector<int> &keys) {
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy{2.0f});
    thrust::inclusive_scan(x.begin(), x.end(), y.begin());
    thrust::sort(keys.begin(), keys.end());
    thrust::sort_by_key(keys.begin(), keys.end(), x.begin());
    (void)thrust::reduce(y.begin(), y.end());
}

void cub_algorithms(int *in, int *out, int n, void *tmp, size_t bytes) {
    cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
    cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
    cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
    cub::DeviceHistogram::HistogramEven(tmp, bytes, in, out, 64, 0, 1024, n);
}
