package vecf32

func init() {
	if HasAVX2 {
		blockFuncs["avx2"] = dotBlockAVX2
	}
}
