// Values computed once per key, for keys that come from outside (a locale tag a browser sent, a stored text): the
// cache empties itself when it grows past `maxEntries`, so no sender can make it grow without end. Written by hand:
// an LRU's bookkeeping buys nothing for sets of keys that real traffic never fills.

/** `cached(key, compute)`: the value kept for `key`, else `compute()`'s, kept (a compute that throws keeps nothing). */
export function boundedCache<Value>(maxEntries: number): (key: string, compute: () => Value) => Value {
  const values = new Map<string, Value>();
  return (key, compute) => {
    let value = values.get(key);
    if (value === undefined) {
      if (values.size >= maxEntries) values.clear();
      value = compute();
      values.set(key, value);
    }
    return value;
  };
}
