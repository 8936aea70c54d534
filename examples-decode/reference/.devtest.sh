set -x
R=examples-decode/reference/llama_reference.py
cd "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
python3 -c "import torch, numpy; print(torch.__version__, numpy.__version__, torch.cuda.get_device_name())"
python3 $R selftest | tail -1
W=/tmp/w; mkdir -p $W
python3 - <<'PY'
import sys; sys.path.insert(0, "examples-decode/reference")
import llama_reference as L
for name, kw in (("tiny", L.TINY), ("s15", {**L.TINY, "name": "stories15M", "dim": 288, "layers": 6, "heads": 6, "kv_heads": 6, "ffn": 768, "vocab": 32000, "max_seq": 512})):
    cfg = L.Config(**kw)
    L.write_safetensors(f"/tmp/w/{name}.safetensors", L.random_model(cfg, 3), cfg.to_metadata(3))
    c, t = L.load_model(f"/tmp/w/{name}.safetensors")
    toks, lg = L.generate(L.NumpyDecoder(c, t).step, 64, c.vocab)
    L.write_dump(f"/tmp/w/{name}_dump", c, toks, lg)
PY
python3 $R check --weights $W/tiny.safetensors --dump $W/tiny_dump --device both; echo rc=$?
python3 $R check --weights $W/s15.safetensors --dump $W/s15_dump --device both; echo rc=$?
python3 $R check --weights $W/s15.safetensors --dump $W/s15_dump --steps 4; echo rc=$?
python3 $R bench --weights $W/tiny.safetensors --tokens 64 --warmup 8 --reps 3; echo rc=$?
python3 $R bench --weights $W/s15.safetensors; echo rc=$?
