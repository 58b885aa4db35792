package use

func init() {
	if hasAVX2 {
		testKernels["avx2"] = kernelSet{one: kernelAVX2}
	}
	if hasAVX512 {
		testKernels["avx512"] = kernelSet{one: kernelAVX2, pair: kernel2AVX512}
	}
}
