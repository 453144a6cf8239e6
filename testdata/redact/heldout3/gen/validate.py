import json, collections
def load(p): return [json.loads(l) for l in open(p, encoding='utf-8')]
s = load('screen.jsonl'); x = load('secrets.jsonl'); b = load('benign.jsonl')
assert len({r['name'] for r in s}) == len(s) and all(set(r) == {'name','held','text'} and isinstance(r['held'], bool) for r in s)
assert len({r['shape'] for r in x}) == len(x) and all(set(r) == {'category','shape','text','secret'} and r['secret'] in r['text'] and r['secret'] for r in x)
assert len({r['name'] for r in b}) == len(b) and all(set(r) == {'name','text'} for r in b)
held = [r for r in s if r['held']]
print('screen', len(s), 'held', len(held), 'not held', len(s)-len(held))
print(' held cats', collections.Counter(r['name'].split('-',2)[1] if not r['name'].startswith('h3-lang') else 'lang' for r in held))
print(' notheld cats', collections.Counter(r['name'].split('-')[2] for r in s if not r['held']))
print('secrets', len(x), dict(collections.Counter(r['category'] for r in x)))
print('benign', len(b))
print('escaped invisibles in screen.jsonl:', open('screen.jsonl').read().count('\\u200b'), open('screen.jsonl').read().count('\\udb40'))
