// The FFI tests' C library (built by the tests: cc -shared -fPIC): every parameter and
// result type, signatures up to 8 arguments with floats and integers mixed, callbacks.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>

int8_t t_i8(int8_t x) { return (int8_t)(x - 1); }
uint8_t t_u8(uint8_t x) { return (uint8_t)(x + 1); }
int16_t t_i16(int16_t x) { return (int16_t)(x - 1); }
uint16_t t_u16(uint16_t x) { return (uint16_t)(x + 1); }
int32_t t_i32(int32_t x) { return x - 1; }
uint32_t t_u32(uint32_t x) { return x + 1; }
int64_t t_i64(int64_t x) { return x - 1; }
uint64_t t_u64(uint64_t x) { return x + 1; }
ptrdiff_t t_isize(ptrdiff_t x) { return x * 2; }
size_t t_usize(size_t x) { return x * 2; }
float t_f32(float x) { return x * 0.5f; }
double t_f64(double x) { return x * 0.5; }
bool t_bool(bool x) { return !x; }
void *t_pointer(void *p) { return p; }
void t_void(void) {}

// Sums n bytes of a buffer; writes n-1 into out[0] when out is not null.
uint32_t t_buffer(const uint8_t *buf, size_t n, int32_t *out) {
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) s += buf[i];
    if (out) out[0] = (int32_t)n - 1;
    return s;
}

// Eight arguments, floats and integers interleaved (some go on the stack).
double mix8(int8_t a, double b, uint16_t c, float d, int32_t e, double f, uint64_t g, float h) {
    return a * 1.0 + b * 10.0 + c * 100.0 + d * 1000.0 + e * 10000.0 + f * 100000.0 + (double)g * 1000000.0 + h * 10000000.0;
}
int64_t ints8(int8_t a, int16_t b, int32_t c, int64_t d, uint8_t e, uint16_t f, uint32_t g, uint64_t h) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * (int64_t)g + 8 * (int64_t)h;
}
double floats8(float a, double b, float c, double d, float e, double f, float g, double h) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
float mixf(float a, int64_t b, double c, uint8_t d, float e, int16_t f, double g, uint32_t h) {
    return (float)(a - b + c - d + e - f + g - h);
}
uint64_t ptrs8(void *a, int32_t b, void *c, double d, void *e, int8_t f, void *g, float h) {
    return (uint64_t)((char *)c - (char *)a) + (uint64_t)((char *)g - (char *)e) + (uint64_t)b + (uint64_t)f + (uint64_t)d + (uint64_t)h;
}

// Callbacks.
double apply_mix(double (*f)(int32_t, double, float, uint64_t, int8_t, bool), int32_t x) {
    return f(x, x * 1.5, (float)x * 0.25f, (uint64_t)x * 3, (int8_t)-x, x > 0);
}
int64_t apply_i64(int64_t (*f)(int64_t), int64_t x) { return f(x) + f(x + 1); }
uint8_t apply_u8(uint8_t (*f)(uint8_t), uint8_t x) { return f(x); }
int16_t apply_i16(int16_t (*f)(int16_t), int16_t x) { return (int16_t)(f(x) + 1); }
float apply_f32(float (*f)(float, float), float x) { return f(x, x) * 2.0f; }
void *apply_ptr(void *(*f)(void *), void *p) { return f(p); }
int32_t sum_with(int32_t (*f)(int32_t), int32_t n) {
    int32_t s = 0;
    for (int32_t i = 0; i < n; i++) s += f(i);
    return s;
}

// A callback kept by C and called later.
static int32_t (*kept)(int32_t);
void keep(int32_t (*f)(int32_t)) { kept = f; }
int32_t call_kept(int32_t x) { return kept ? kept(x) : -1; }

const char *greeting(void) { return "héllo from C"; }
int32_t trivial(int32_t x) { return x; }

// A library that crashes.
int32_t crash(void) {
    volatile int32_t *p = (int32_t *)0;
    return *p;
}

// A library that starts a thread (clone is outside the worker's policy).
static void *thread_main(void *arg) { ((void (*)(void))arg)(); return 0; }
int32_t call_from_thread(void (*f)(void)) {
    pthread_t t;
    if (pthread_create(&t, 0, thread_main, (void *)f) != 0) return -1;
    pthread_join(t, 0);
    return 0;
}
