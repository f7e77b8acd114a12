/* llvm_api.h: the LLVM-C functions the JIT calls, through pointers that llvm_api_load fills
 * from libLLVM when the JIT first needs it (engine.c, jit_init).
 *
 * Why not link libLLVM: a process that loads it pays ~340,000 relocations and ~2,500 page faults
 * at start (70-80 ms of CPU on the project's VM), though most programs never compile a kernel
 * (the auto executor compiles only hot ones). So no part of ptxsim links libLLVM: the JIT's
 * files include this header, in which each LLVM-C function below names its pointer, and the
 * library is opened on the first compile or disk-cache load.
 *
 * A new LLVM-C call: add its name to LLVM_API_FUNCTIONS and to the redirections below (the
 * link fails with "undefined reference to LLVM..." until then: nothing links libLLVM). */
#ifndef PTXSIM_EMULATOR_JIT_LLVM_API_H
#define PTXSIM_EMULATOR_JIT_LLVM_API_H

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Object.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <stdbool.h>
#include <stddef.h>

#ifndef LLVM_NATIVE_TARGET
#error "this LLVM has no native target for the host (LLVM_NATIVE_TARGET)"
#endif

/* The native target's initialisers (LLVMInitializeNativeTarget and ...AsmPrinter are inline
 * functions of Target.h that call these). */
#define LLVM_API_NATIVE(X) \
    X(LLVM_NATIVE_TARGETINFO) X(LLVM_NATIVE_TARGET) X(LLVM_NATIVE_TARGETMC) X(LLVM_NATIVE_ASMPRINTER)

#define LLVM_API_FUNCTIONS(X) \
    X(LLVMAddCase) \
    X(LLVMAddFunction) \
    X(LLVMAddGlobal) \
    X(LLVMAddIncoming) \
    X(LLVMAppendBasicBlockInContext) \
    X(LLVMBuildAShr) \
    X(LLVMBuildAdd) \
    X(LLVMBuildAlloca) \
    X(LLVMBuildAnd) \
    X(LLVMBuildBitCast) \
    X(LLVMBuildBr) \
    X(LLVMBuildCall2) \
    X(LLVMBuildCondBr) \
    X(LLVMBuildExtractElement) \
    X(LLVMBuildFAdd) \
    X(LLVMBuildFCmp) \
    X(LLVMBuildFDiv) \
    X(LLVMBuildFMul) \
    X(LLVMBuildFNeg) \
    X(LLVMBuildFPExt) \
    X(LLVMBuildFPToSI) \
    X(LLVMBuildFPToUI) \
    X(LLVMBuildFPTrunc) \
    X(LLVMBuildFSub) \
    X(LLVMBuildFreeze) \
    X(LLVMBuildGEP2) \
    X(LLVMBuildICmp) \
    X(LLVMBuildInsertElement) \
    X(LLVMBuildIntToPtr) \
    X(LLVMBuildIsNotNull) \
    X(LLVMBuildLShr) \
    X(LLVMBuildLoad2) \
    X(LLVMBuildMul) \
    X(LLVMBuildNeg) \
    X(LLVMBuildNot) \
    X(LLVMBuildOr) \
    X(LLVMBuildPhi) \
    X(LLVMBuildPtrToInt) \
    X(LLVMBuildRet) \
    X(LLVMBuildSDiv) \
    X(LLVMBuildSExt) \
    X(LLVMBuildSIToFP) \
    X(LLVMBuildSRem) \
    X(LLVMBuildSelect) \
    X(LLVMBuildShl) \
    X(LLVMBuildShuffleVector) \
    X(LLVMBuildStore) \
    X(LLVMBuildSub) \
    X(LLVMBuildSwitch) \
    X(LLVMBuildTrunc) \
    X(LLVMBuildUDiv) \
    X(LLVMBuildUIToFP) \
    X(LLVMBuildURem) \
    X(LLVMBuildUnreachable) \
    X(LLVMBuildXor) \
    X(LLVMBuildZExt) \
    X(LLVMCloneModule) \
    X(LLVMConstInt) \
    X(LLVMConstNull) \
    X(LLVMConstReal) \
    X(LLVMConstVector) \
    X(LLVMConsumeError) \
    X(LLVMCreateBinary) \
    X(LLVMCreateBuilderInContext) \
    X(LLVMCreateMemoryBufferWithMemoryRangeCopy) \
    X(LLVMCreatePassBuilderOptions) \
    X(LLVMCreateTargetDataLayout) \
    X(LLVMCreateTargetMachine) \
    X(LLVMDisposeBinary) \
    X(LLVMDisposeBuilder) \
    X(LLVMDisposeErrorMessage) \
    X(LLVMDisposeMemoryBuffer) \
    X(LLVMDisposeMessage) \
    X(LLVMDisposeModule) \
    X(LLVMDisposePassBuilderOptions) \
    X(LLVMDisposeSymbolIterator) \
    X(LLVMDisposeTargetData) \
    X(LLVMDoubleTypeInContext) \
    X(LLVMFloatTypeInContext) \
    X(LLVMFunctionType) \
    X(LLVMGetBasicBlockTerminator) \
    X(LLVMGetBufferSize) \
    X(LLVMGetBufferStart) \
    X(LLVMGetDefaultTargetTriple) \
    X(LLVMGetEntryBasicBlock) \
    X(LLVMGetErrorMessage) \
    X(LLVMGetFirstInstruction) \
    X(LLVMGetHostCPUFeatures) \
    X(LLVMGetHostCPUName) \
    X(LLVMGetInsertBlock) \
    X(LLVMGetIntrinsicDeclaration) \
    X(LLVMGetMDKindIDInContext) \
    X(LLVMGetModuleContext) \
    X(LLVMGetNamedFunction) \
    X(LLVMGetNamedGlobal) \
    X(LLVMGetOperand) \
    X(LLVMGetParam) \
    X(LLVMGetPoison) \
    X(LLVMGetSymbolName) \
    X(LLVMGetSymbolSize) \
    X(LLVMGetTargetFromTriple) \
    X(LLVMGetTargetMachineTriple) \
    X(LLVMGetVersion) \
    X(LLVMInt16TypeInContext) \
    X(LLVMInt1TypeInContext) \
    X(LLVMInt32TypeInContext) \
    X(LLVMInt64TypeInContext) \
    X(LLVMInt8TypeInContext) \
    X(LLVMIntrinsicGetType) \
    X(LLVMIsAZExtInst) \
    X(LLVMLookupIntrinsicID) \
    X(LLVMMDNodeInContext2) \
    X(LLVMMDStringInContext2) \
    X(LLVMMetadataAsValue) \
    X(LLVMModuleCreateWithNameInContext) \
    X(LLVMMoveBasicBlockAfter) \
    X(LLVMMoveToNextSymbol) \
    X(LLVMObjectFileCopySymbolIterator) \
    X(LLVMObjectFileIsSymbolIteratorAtEnd) \
    X(LLVMOrcAbsoluteSymbols) \
    X(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess) \
    X(LLVMOrcCreateLLJIT) \
    X(LLVMOrcCreateLLJITBuilder) \
    X(LLVMOrcCreateNewThreadSafeContext) \
    X(LLVMOrcDisposeThreadSafeContext) \
    X(LLVMOrcJITDylibAddGenerator) \
    X(LLVMOrcJITDylibCreateResourceTracker) \
    X(LLVMOrcJITDylibDefine) \
    X(LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine) \
    X(LLVMOrcLLJITAddObjectFileWithRT) \
    X(LLVMOrcLLJITBuilderSetJITTargetMachineBuilder) \
    X(LLVMOrcLLJITGetGlobalPrefix) \
    X(LLVMOrcLLJITGetMainJITDylib) \
    X(LLVMOrcLLJITLookup) \
    X(LLVMOrcLLJITMangleAndIntern) \
    X(LLVMOrcReleaseResourceTracker) \
    X(LLVMOrcResourceTrackerRemove) \
    X(LLVMOrcThreadSafeContextGetContext) \
    X(LLVMParseCommandLineOptions) \
    X(LLVMPointerTypeInContext) \
    X(LLVMPositionBuilderAtEnd) \
    X(LLVMPositionBuilderBefore) \
    X(LLVMPrintModuleToString) \
    X(LLVMRunPasses) \
    X(LLVMSetAlignment) \
    X(LLVMSetMetadata) \
    X(LLVMSetModuleDataLayout) \
    X(LLVMSetOrdering) \
    X(LLVMSetTarget) \
    X(LLVMSetTargetMachineAsmVerbosity) \
    X(LLVMSetVolatile) \
    X(LLVMTargetMachineEmitToMemoryBuffer) \
    X(LLVMTypeOf) \
    X(LLVMValueAsMetadata) \
    X(LLVMVectorType) \
    X(LLVMVerifyModule) \
    X(LLVMVoidTypeInContext)

#define LLVM_API_MEMBER(f) __typeof__(f) *f;
typedef struct llvm_api_table {
    LLVM_API_FUNCTIONS(LLVM_API_MEMBER)
    LLVM_API_NATIVE(LLVM_API_MEMBER)
} llvm_api_table;
#undef LLVM_API_MEMBER

/* Filled once by llvm_api_load; read only after it returned true. */
extern llvm_api_table llvm_api;

/* Opens libLLVM (the soname the build found, PTXSIM_LLVM_SONAME) and fills llvm_api, once per
 * process (later calls return the first call's result); false with the reason in err when the
 * library or one of the functions is missing. Thread-safe. */
bool llvm_api_load(char *err, size_t errlen);

/* LLVMInitializeNativeTarget() and LLVMInitializeNativeAsmPrinter(), through the table. */
static inline void llvm_api_init_native(void)
{
    llvm_api.LLVM_NATIVE_TARGETINFO();
    llvm_api.LLVM_NATIVE_TARGET();
    llvm_api.LLVM_NATIVE_TARGETMC();
    llvm_api.LLVM_NATIVE_ASMPRINTER();
}

#ifndef LLVM_API_NO_REDIRECT
#define LLVMAddCase llvm_api.LLVMAddCase
#define LLVMAddFunction llvm_api.LLVMAddFunction
#define LLVMAddGlobal llvm_api.LLVMAddGlobal
#define LLVMAddIncoming llvm_api.LLVMAddIncoming
#define LLVMAppendBasicBlockInContext llvm_api.LLVMAppendBasicBlockInContext
#define LLVMBuildAShr llvm_api.LLVMBuildAShr
#define LLVMBuildAdd llvm_api.LLVMBuildAdd
#define LLVMBuildAlloca llvm_api.LLVMBuildAlloca
#define LLVMBuildAnd llvm_api.LLVMBuildAnd
#define LLVMBuildBitCast llvm_api.LLVMBuildBitCast
#define LLVMBuildBr llvm_api.LLVMBuildBr
#define LLVMBuildCall2 llvm_api.LLVMBuildCall2
#define LLVMBuildCondBr llvm_api.LLVMBuildCondBr
#define LLVMBuildExtractElement llvm_api.LLVMBuildExtractElement
#define LLVMBuildFAdd llvm_api.LLVMBuildFAdd
#define LLVMBuildFCmp llvm_api.LLVMBuildFCmp
#define LLVMBuildFDiv llvm_api.LLVMBuildFDiv
#define LLVMBuildFMul llvm_api.LLVMBuildFMul
#define LLVMBuildFNeg llvm_api.LLVMBuildFNeg
#define LLVMBuildFPExt llvm_api.LLVMBuildFPExt
#define LLVMBuildFPToSI llvm_api.LLVMBuildFPToSI
#define LLVMBuildFPToUI llvm_api.LLVMBuildFPToUI
#define LLVMBuildFPTrunc llvm_api.LLVMBuildFPTrunc
#define LLVMBuildFSub llvm_api.LLVMBuildFSub
#define LLVMBuildFreeze llvm_api.LLVMBuildFreeze
#define LLVMBuildGEP2 llvm_api.LLVMBuildGEP2
#define LLVMBuildICmp llvm_api.LLVMBuildICmp
#define LLVMBuildInsertElement llvm_api.LLVMBuildInsertElement
#define LLVMBuildIntToPtr llvm_api.LLVMBuildIntToPtr
#define LLVMBuildIsNotNull llvm_api.LLVMBuildIsNotNull
#define LLVMBuildLShr llvm_api.LLVMBuildLShr
#define LLVMBuildLoad2 llvm_api.LLVMBuildLoad2
#define LLVMBuildMul llvm_api.LLVMBuildMul
#define LLVMBuildNeg llvm_api.LLVMBuildNeg
#define LLVMBuildNot llvm_api.LLVMBuildNot
#define LLVMBuildOr llvm_api.LLVMBuildOr
#define LLVMBuildPhi llvm_api.LLVMBuildPhi
#define LLVMBuildPtrToInt llvm_api.LLVMBuildPtrToInt
#define LLVMBuildRet llvm_api.LLVMBuildRet
#define LLVMBuildSDiv llvm_api.LLVMBuildSDiv
#define LLVMBuildSExt llvm_api.LLVMBuildSExt
#define LLVMBuildSIToFP llvm_api.LLVMBuildSIToFP
#define LLVMBuildSRem llvm_api.LLVMBuildSRem
#define LLVMBuildSelect llvm_api.LLVMBuildSelect
#define LLVMBuildShl llvm_api.LLVMBuildShl
#define LLVMBuildShuffleVector llvm_api.LLVMBuildShuffleVector
#define LLVMBuildStore llvm_api.LLVMBuildStore
#define LLVMBuildSub llvm_api.LLVMBuildSub
#define LLVMBuildSwitch llvm_api.LLVMBuildSwitch
#define LLVMBuildTrunc llvm_api.LLVMBuildTrunc
#define LLVMBuildUDiv llvm_api.LLVMBuildUDiv
#define LLVMBuildUIToFP llvm_api.LLVMBuildUIToFP
#define LLVMBuildURem llvm_api.LLVMBuildURem
#define LLVMBuildUnreachable llvm_api.LLVMBuildUnreachable
#define LLVMBuildXor llvm_api.LLVMBuildXor
#define LLVMBuildZExt llvm_api.LLVMBuildZExt
#define LLVMCloneModule llvm_api.LLVMCloneModule
#define LLVMConstInt llvm_api.LLVMConstInt
#define LLVMConstNull llvm_api.LLVMConstNull
#define LLVMConstReal llvm_api.LLVMConstReal
#define LLVMConstVector llvm_api.LLVMConstVector
#define LLVMConsumeError llvm_api.LLVMConsumeError
#define LLVMCreateBinary llvm_api.LLVMCreateBinary
#define LLVMCreateBuilderInContext llvm_api.LLVMCreateBuilderInContext
#define LLVMCreateMemoryBufferWithMemoryRangeCopy llvm_api.LLVMCreateMemoryBufferWithMemoryRangeCopy
#define LLVMCreatePassBuilderOptions llvm_api.LLVMCreatePassBuilderOptions
#define LLVMCreateTargetDataLayout llvm_api.LLVMCreateTargetDataLayout
#define LLVMCreateTargetMachine llvm_api.LLVMCreateTargetMachine
#define LLVMDisposeBinary llvm_api.LLVMDisposeBinary
#define LLVMDisposeBuilder llvm_api.LLVMDisposeBuilder
#define LLVMDisposeErrorMessage llvm_api.LLVMDisposeErrorMessage
#define LLVMDisposeMemoryBuffer llvm_api.LLVMDisposeMemoryBuffer
#define LLVMDisposeMessage llvm_api.LLVMDisposeMessage
#define LLVMDisposeModule llvm_api.LLVMDisposeModule
#define LLVMDisposePassBuilderOptions llvm_api.LLVMDisposePassBuilderOptions
#define LLVMDisposeSymbolIterator llvm_api.LLVMDisposeSymbolIterator
#define LLVMDisposeTargetData llvm_api.LLVMDisposeTargetData
#define LLVMDoubleTypeInContext llvm_api.LLVMDoubleTypeInContext
#define LLVMFloatTypeInContext llvm_api.LLVMFloatTypeInContext
#define LLVMFunctionType llvm_api.LLVMFunctionType
#define LLVMGetBasicBlockTerminator llvm_api.LLVMGetBasicBlockTerminator
#define LLVMGetBufferSize llvm_api.LLVMGetBufferSize
#define LLVMGetBufferStart llvm_api.LLVMGetBufferStart
#define LLVMGetDefaultTargetTriple llvm_api.LLVMGetDefaultTargetTriple
#define LLVMGetEntryBasicBlock llvm_api.LLVMGetEntryBasicBlock
#define LLVMGetErrorMessage llvm_api.LLVMGetErrorMessage
#define LLVMGetFirstInstruction llvm_api.LLVMGetFirstInstruction
#define LLVMGetHostCPUFeatures llvm_api.LLVMGetHostCPUFeatures
#define LLVMGetHostCPUName llvm_api.LLVMGetHostCPUName
#define LLVMGetInsertBlock llvm_api.LLVMGetInsertBlock
#define LLVMGetIntrinsicDeclaration llvm_api.LLVMGetIntrinsicDeclaration
#define LLVMGetMDKindIDInContext llvm_api.LLVMGetMDKindIDInContext
#define LLVMGetModuleContext llvm_api.LLVMGetModuleContext
#define LLVMGetNamedFunction llvm_api.LLVMGetNamedFunction
#define LLVMGetNamedGlobal llvm_api.LLVMGetNamedGlobal
#define LLVMGetOperand llvm_api.LLVMGetOperand
#define LLVMGetParam llvm_api.LLVMGetParam
#define LLVMGetPoison llvm_api.LLVMGetPoison
#define LLVMGetSymbolName llvm_api.LLVMGetSymbolName
#define LLVMGetSymbolSize llvm_api.LLVMGetSymbolSize
#define LLVMGetTargetFromTriple llvm_api.LLVMGetTargetFromTriple
#define LLVMGetTargetMachineTriple llvm_api.LLVMGetTargetMachineTriple
#define LLVMGetVersion llvm_api.LLVMGetVersion
#define LLVMInt16TypeInContext llvm_api.LLVMInt16TypeInContext
#define LLVMInt1TypeInContext llvm_api.LLVMInt1TypeInContext
#define LLVMInt32TypeInContext llvm_api.LLVMInt32TypeInContext
#define LLVMInt64TypeInContext llvm_api.LLVMInt64TypeInContext
#define LLVMInt8TypeInContext llvm_api.LLVMInt8TypeInContext
#define LLVMIntrinsicGetType llvm_api.LLVMIntrinsicGetType
#define LLVMIsAZExtInst llvm_api.LLVMIsAZExtInst
#define LLVMLookupIntrinsicID llvm_api.LLVMLookupIntrinsicID
#define LLVMMDNodeInContext2 llvm_api.LLVMMDNodeInContext2
#define LLVMMDStringInContext2 llvm_api.LLVMMDStringInContext2
#define LLVMMetadataAsValue llvm_api.LLVMMetadataAsValue
#define LLVMModuleCreateWithNameInContext llvm_api.LLVMModuleCreateWithNameInContext
#define LLVMMoveBasicBlockAfter llvm_api.LLVMMoveBasicBlockAfter
#define LLVMMoveToNextSymbol llvm_api.LLVMMoveToNextSymbol
#define LLVMObjectFileCopySymbolIterator llvm_api.LLVMObjectFileCopySymbolIterator
#define LLVMObjectFileIsSymbolIteratorAtEnd llvm_api.LLVMObjectFileIsSymbolIteratorAtEnd
#define LLVMOrcAbsoluteSymbols llvm_api.LLVMOrcAbsoluteSymbols
#define LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess llvm_api.LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess
#define LLVMOrcCreateLLJIT llvm_api.LLVMOrcCreateLLJIT
#define LLVMOrcCreateLLJITBuilder llvm_api.LLVMOrcCreateLLJITBuilder
#define LLVMOrcCreateNewThreadSafeContext llvm_api.LLVMOrcCreateNewThreadSafeContext
#define LLVMOrcDisposeThreadSafeContext llvm_api.LLVMOrcDisposeThreadSafeContext
#define LLVMOrcJITDylibAddGenerator llvm_api.LLVMOrcJITDylibAddGenerator
#define LLVMOrcJITDylibCreateResourceTracker llvm_api.LLVMOrcJITDylibCreateResourceTracker
#define LLVMOrcJITDylibDefine llvm_api.LLVMOrcJITDylibDefine
#define LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine llvm_api.LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine
#define LLVMOrcLLJITAddObjectFileWithRT llvm_api.LLVMOrcLLJITAddObjectFileWithRT
#define LLVMOrcLLJITBuilderSetJITTargetMachineBuilder llvm_api.LLVMOrcLLJITBuilderSetJITTargetMachineBuilder
#define LLVMOrcLLJITGetGlobalPrefix llvm_api.LLVMOrcLLJITGetGlobalPrefix
#define LLVMOrcLLJITGetMainJITDylib llvm_api.LLVMOrcLLJITGetMainJITDylib
#define LLVMOrcLLJITLookup llvm_api.LLVMOrcLLJITLookup
#define LLVMOrcLLJITMangleAndIntern llvm_api.LLVMOrcLLJITMangleAndIntern
#define LLVMOrcReleaseResourceTracker llvm_api.LLVMOrcReleaseResourceTracker
#define LLVMOrcResourceTrackerRemove llvm_api.LLVMOrcResourceTrackerRemove
#define LLVMOrcThreadSafeContextGetContext llvm_api.LLVMOrcThreadSafeContextGetContext
#define LLVMParseCommandLineOptions llvm_api.LLVMParseCommandLineOptions
#define LLVMPointerTypeInContext llvm_api.LLVMPointerTypeInContext
#define LLVMPositionBuilderAtEnd llvm_api.LLVMPositionBuilderAtEnd
#define LLVMPositionBuilderBefore llvm_api.LLVMPositionBuilderBefore
#define LLVMPrintModuleToString llvm_api.LLVMPrintModuleToString
#define LLVMRunPasses llvm_api.LLVMRunPasses
#define LLVMSetAlignment llvm_api.LLVMSetAlignment
#define LLVMSetMetadata llvm_api.LLVMSetMetadata
#define LLVMSetModuleDataLayout llvm_api.LLVMSetModuleDataLayout
#define LLVMSetOrdering llvm_api.LLVMSetOrdering
#define LLVMSetTarget llvm_api.LLVMSetTarget
#define LLVMSetTargetMachineAsmVerbosity llvm_api.LLVMSetTargetMachineAsmVerbosity
#define LLVMSetVolatile llvm_api.LLVMSetVolatile
#define LLVMTargetMachineEmitToMemoryBuffer llvm_api.LLVMTargetMachineEmitToMemoryBuffer
#define LLVMTypeOf llvm_api.LLVMTypeOf
#define LLVMValueAsMetadata llvm_api.LLVMValueAsMetadata
#define LLVMVectorType llvm_api.LLVMVectorType
#define LLVMVerifyModule llvm_api.LLVMVerifyModule
#define LLVMVoidTypeInContext llvm_api.LLVMVoidTypeInContext
#endif

#endif
