import json, unicodedata
def _esc_invisible(s):
    out = []
    for ch in s:
        cp = ord(ch)
        if (unicodedata.category(ch) == 'Cf' or 0xE0000 <= cp <= 0xE007F) and ch not in '\n\t':
            if cp > 0xFFFF:
                v = cp - 0x10000
                out.append('\\u%04x\\u%04x' % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)))
            else:
                out.append('\\u%04x' % cp)
        else:
            out.append(ch)
    return ''.join(out)
def dumps(obj):
    return _esc_invisible(json.dumps(obj, ensure_ascii=False))
def write(path, rows):
    with open(path, 'w', encoding='utf-8') as f:
        for r in rows:
            line = dumps(r)
            assert json.loads(line) == r
            f.write(line + '\n')
