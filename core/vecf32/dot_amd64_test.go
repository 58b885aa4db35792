package vecf32

func init() {
	if HasAVX2 {
		blockFuncs["avx2"] = dotBlockAVX2
		dotFuncs["avx2"] = dotDispatchAVX2
	}
	if HasAVX512 {
		blockFuncs["avx512"] = dotBlockAVX512
	}
}
