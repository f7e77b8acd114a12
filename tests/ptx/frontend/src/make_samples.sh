#!/bin/bash
# Regenerates the nvcc 13 PTX samples that tests/unit/test_parser.c and test_ir.c read.
# Run from anywhere: bash tests/ptx/frontend/src/make_samples.sh
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
out=..
"$NVCC" -ptx -arch=sm_75 vadd.cu -o $out/vadd.sm75.ptx
"$NVCC" -ptx -arch=sm_120 vadd.cu -o $out/vadd.sm120.ptx
"$NVCC" -ptx -arch=sm_80 -G vadd.cu -o $out/vadd.G.sm80.ptx
"$NVCC" -ptx -arch=sm_80 matmul.cu -o $out/matmul.sm80.ptx
"$NVCC" -ptx -arch=sm_120 -G matmul.cu -o $out/matmul.G.sm120.ptx
"$NVCC" -ptx -arch=sm_80 reduce.cu -o $out/reduce.sm80.ptx
"$NVCC" -ptx -arch=sm_120 reduce.cu -o $out/reduce.sm120.ptx
"$NVCC" -ptx -arch=sm_80 diverge.cu -o $out/diverge.sm80.ptx
"$NVCC" -ptx -arch=sm_90 -lineinfo diverge.cu -o $out/diverge.lineinfo.sm90.ptx
"$NVCC" -ptx -arch=sm_80 features.cu -o $out/features.sm80.ptx
"$NVCC" -ptx -arch=sm_120 features.cu -o $out/features.sm120.ptx
"$NVCC" -ptx -arch=sm_80 tc.cu -o $out/tc.sm80.ptx
"$NVCC" -ptx -arch=sm_90 cluster.cu -o $out/cluster.sm90.ptx
"$NVCC" -ptx -arch=sm_80 -rdc=true rdc_child.cu -o $out/rdc.sm80.ptx
