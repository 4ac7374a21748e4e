/* Dot product and squared norm of two double vectors, a float reduction
 * through a recurrence of the adder (Dynamatic's float_basic shape). */
#define N 32

double dot_f64(const double a[N], const double b[N], double norm[1]) {
  double s = 0.0, t = 0.0;
  for (int i = 0; i < N; i++) {
    s += a[i] * b[i];
    t += a[i] * a[i];
  }
  norm[0] = t;
  return s;
}

int main(void) {
  double a[N], b[N], norm[1];
  for (int i = 0; i < N; i++) {
    a[i] = (double)i / 3.0 - 4.0;
    b[i] = 1.0 / (double)(i + 1);
  }
  dot_f64(a, b, norm);
  return 0;
}
