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

// 32 arguments, integers and doubles in pairs: 18 on the stack on x86_64 (past the direct
// call's 10 stack slots: through ffi_call). The sum of a_i * (i + 1).
double weigh32(int32_t a0, int32_t a1, double a2, double a3, int32_t a4, int32_t a5, double a6, double a7, int32_t a8, int32_t a9, double a10, double a11, int32_t a12, int32_t a13, double a14, double a15, int32_t a16, int32_t a17, double a18, double a19, int32_t a20, int32_t a21, double a22, double a23, int32_t a24, int32_t a25, double a26, double a27, int32_t a28, int32_t a29, double a30, double a31) {
    return a0 * 1 + a1 * 2 + a2 * 3 + a3 * 4 + a4 * 5 + a5 * 6 + a6 * 7 + a7 * 8 + a8 * 9 + a9 * 10 + a10 * 11 + a11 * 12 + a12 * 13 + a13 * 14 + a14 * 15 + a15 * 16 + a16 * 17 + a17 * 18 + a18 * 19 + a19 * 20 + a20 * 21 + a21 * 22 + a22 * 23 + a23 * 24 + a24 * 25 + a25 * 26 + a26 * 27 + a27 * 28 + a28 * 29 + a29 * 30 + a30 * 31 + a31 * 32;
}

// 16 arguments, 8 int64 then 8 float: 2 integer and 0 floating-point ones on the stack on x86_64.
double weigh16(int64_t b0, int64_t b1, int64_t b2, int64_t b3, int64_t b4, int64_t b5, int64_t b6, int64_t b7, float b8, float b9, float b10, float b11, float b12, float b13, float b14, float b15) {
    return (double)b0 * 1 + (double)b1 * 2 + (double)b2 * 3 + (double)b3 * 4 + (double)b4 * 5 + (double)b5 * 6 + (double)b6 * 7 + (double)b7 * 8 + (double)b8 * 9 + (double)b9 * 10 + (double)b10 * 11 + (double)b11 * 12 + (double)b12 * 13 + (double)b13 * 14 + (double)b14 * 15 + (double)b15 * 16;
}

// For tools/ffi-bench.sh: 8 arguments (x86_64: 2 of them on the stack), and 8 mixed ones.
int32_t trivial8(int32_t a, int32_t b, int32_t c, int32_t d, int32_t e, int32_t f, int32_t g, int32_t h) {
    return a + b + c + d + e + f + g + h;
}
int32_t mixed8(int32_t a, double b, int32_t c, float d, int32_t e, double f, int32_t g, float h) {
    return a + c + e + g + (int32_t)(b + d + f + h);
}
