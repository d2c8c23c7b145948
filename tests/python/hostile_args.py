"""The hostile arguments the property tests draw (hypothesis strategies): None, bools, huge and
negative ints, NaN and infinities, strings with NUL bytes and planner-ish words, bytes, NumPy
arrays of any dtype and shape (sometimes not contiguous). test_hypothesis_doors.py and
test_hypothesis_every_door.py both draw from here; each adds its own containers."""
import numpy as np
from hypothesis import strategies as st

ints = st.one_of(st.integers(-3, 8), st.integers(),
                 st.sampled_from([2**31, 2**32, 2**63, -2**63, 2**64, 2**70, -1]))
floats = st.floats(allow_nan=True, allow_infinity=True)
texts = st.one_of(st.text(max_size=12),
                  st.sampled_from(["", " ", "\x00", "a\x00b", "auto", "native", "sas", "topo",
                                   "astar", "none"]))
scalars = st.one_of(st.none(), st.booleans(), ints, floats, texts, st.binary(max_size=8))
dtypes = st.sampled_from([np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
                          np.uint64, np.float32, np.float64, np.bool_, object])


@st.composite
def arrays(draw, dtype=None, shape=None):
    dtype = dtype or draw(dtypes)
    shape = shape if shape is not None else draw(st.lists(st.integers(0, 5), max_size=3))
    size = int(np.prod(shape)) if shape else 1
    values = draw(st.lists(st.integers(-2**63, 2**64 - 1), min_size=size, max_size=size))
    if dtype is object:
        a = np.empty(size, dtype=object)
        a[:] = values
        return a.reshape(shape)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    if info is not None:
        values = [min(max(v, info.min), info.max) for v in values]
    a = np.array(values, dtype=np.float64 if info is None else dtype).astype(dtype).reshape(shape)
    if draw(st.booleans()) and a.ndim >= 1 and a.shape[0] > 1:
        a = a[::2]  # not contiguous
    return a
