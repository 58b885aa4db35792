package use

func init() {
	if hasAVX2 {
		testKernels["avx2"] = kernelAVX2
	}
}
