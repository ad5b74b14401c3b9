/**
 * The normal, Student t and noncentral t distributions that intervals, tests and power need, in
 * plain arithmetic: no dependency, accurate to ~1e-10 where the report prints at most four digits.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms). */
function logGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const shifted = x - 1;
  let series = coefficients[0]!;
  for (let index = 1; index < coefficients.length; index++) series += coefficients[index]! / (shifted + index);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(series);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = Math.abs(d) < tiny ? tiny : d;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 300; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = 1 + even / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = 1 + odd / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return result;
}

/** The regularized incomplete beta function I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom (df > 0; Infinity is the normal). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(df)) return normalCdf(t);
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

/** Two-sided p-value of a t statistic. */
export function twoSidedP(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(df)) return 2 * normalCdf(-Math.abs(t));
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The q-quantile of Student's t (bisection on the CDF: exact to ~1e-12). */
export function studentTQuantile(q: number, df: number): number {
  if (!(q > 0 && q < 1) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(df)) return normalQuantile(q);
  if (q === 0.5) return 0;
  let low = -1;
  let high = 1;
  while (studentTCdf(low, df) > q) low *= 2;
  while (studentTCdf(high, df) < q) high *= 2;
  for (let step = 0; step < 200 && high - low > 1e-13 * Math.max(1, Math.abs(low)); step++) {
    const middle = (low + high) / 2;
    if (studentTCdf(middle, df) < q) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** Terms of the noncentral t series smaller than this (with everything after them) are left out. */
const SERIES_TOLERANCE = 1e-16;

/**
 * Past this noncentrality the series needs thousands of terms (about 10 sqrt(d^2 / 2) of them): the
 * normal approximation takes over (Abramowitz and Stegun 26.7.10). A paired test is that far from
 * its null only when a pilot's SD is near 0; its power is then 1 at any df above a handful.
 */
const LARGEST_SERIES_NONCENTRALITY = 200;

/** x^a (1 - x)^b / (a B(a, b)): the step between I_x(a, b) and I_x(a + 1, b). */
function betaStep(x: number, a: number, b: number): number {
  return Math.exp(logGamma(a + b) - logGamma(a + 1) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
}

/**
 * P(T <= t) - P(Z <= -noncentrality) for t >= 0: half the Poisson mixture of incomplete beta
 * functions (Lenth 1989, AS 243), summed from the mixture's mode outwards (Benton and
 * Krishnamoorthy 2003) so that a large noncentrality neither underflows nor needs thousands of terms.
 */
function noncentralSeries(t: number, df: number, noncentrality: number): number {
  const x = (t * t) / (t * t + df);
  if (x === 0) return 0;
  const b = df / 2;
  const lambda = (noncentrality * noncentrality) / 2;
  const mode = Math.floor(lambda);
  // The weights of I_x(j + 1/2, b) and of I_x(j + 1, b) at the mode.
  const modeP = Math.exp(-lambda + mode * Math.log(lambda) - logGamma(mode + 1));
  const modeQ = Math.sign(noncentrality) * Math.exp(-lambda + (mode + 0.5) * Math.log(lambda) - logGamma(mode + 1.5));
  const modeBetaP = incompleteBeta(x, mode + 0.5, b);
  const modeBetaQ = incompleteBeta(x, mode + 1, b);
  let sum = 0;
  // Upwards: weights and incomplete betas both fall, so the rest is below the next term over (1 - ratio).
  for (let j = mode, p = modeP, q = modeQ, betaP = modeBetaP, betaQ = modeBetaQ; ; j++) {
    sum += p * betaP + q * betaQ;
    betaP -= betaStep(x, j + 0.5, b);
    betaQ -= betaStep(x, j + 1, b);
    p *= lambda / (j + 1);
    q *= lambda / (j + 1.5);
    const ratio = lambda / (j + 2);
    if (ratio < 1 && ((p + Math.abs(q)) * Math.max(betaP, 0)) / (1 - ratio) < SERIES_TOLERANCE) break;
  }
  // Downwards: incomplete betas rise towards 1 at most, weights fall.
  for (let j = mode - 1, p = modeP, q = modeQ, betaP = modeBetaP, betaQ = modeBetaQ; j >= 0; j--) {
    p *= (j + 1) / lambda;
    q *= (j + 1.5) / lambda;
    betaP += betaStep(x, j + 0.5, b);
    betaQ += betaStep(x, j + 1, b);
    sum += p * betaP + q * betaQ;
    const ratio = j / lambda;
    if (((p + Math.abs(q)) * ratio) / (1 - ratio) < SERIES_TOLERANCE) break;
  }
  return sum / 2;
}

/**
 * P(T <= t) for the noncentral t with `df` degrees of freedom and noncentrality `noncentrality`:
 * the distribution of a t statistic when the true mean is `noncentrality` standard errors from 0.
 */
export function noncentralTCdf(t: number, df: number, noncentrality: number): number {
  if (Number.isNaN(t) || !(df > 0) || !Number.isFinite(noncentrality)) return Number.NaN;
  if ((noncentrality * noncentrality) / 2 === 0) return studentTCdf(t, df);
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  if (!Number.isFinite(df)) return normalCdf(t - noncentrality);
  if (Math.abs(noncentrality) > LARGEST_SERIES_NONCENTRALITY) return normalCdf((t * (1 - 1 / (4 * df)) - noncentrality) / Math.sqrt(1 + (t * t) / (2 * df)));
  // T with noncentrality -d is -T with d: the series is for t >= 0 only.
  const probability =
    t < 0 ? 1 - normalCdf(noncentrality) - noncentralSeries(-t, df, -noncentrality) : normalCdf(-noncentrality) + noncentralSeries(t, df, noncentrality);
  return Math.min(1, Math.max(0, probability));
}

/** The regularized lower incomplete gamma function P(a, x): a series below a + 1, a continued fraction above. */
function lowerGamma(a: number, x: number): number {
  if (x <= 0) return 0;
  const logFront = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 500; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break;
    }
    return sum * Math.exp(logFront);
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let fraction = d;
  for (let n = 1; n < 500; n++) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    d = Math.abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return 1 - Math.exp(logFront) * fraction;
}

/** P(Z <= z) for the standard normal: P(|Z| <= |z|) is P(1/2, z^2 / 2). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const central = lowerGamma(0.5, (z * z) / 2);
  return z >= 0 ? 0.5 + central / 2 : 0.5 - central / 2;
}

/** The q-quantile of the standard normal (a rational first guess, then Newton steps on the CDF). */
export function normalQuantile(q: number): number {
  if (!(q > 0 && q < 1)) return q === 0 ? -Infinity : q === 1 ? Infinity : Number.NaN;
  // A logistic-shaped first guess is within ~0.1 everywhere it matters.
  let z = Math.sqrt(-2 * Math.log(Math.min(q, 1 - q)));
  z = z - (2.515517 + 0.802853 * z + 0.010328 * z * z) / (1 + 1.432788 * z + 0.189269 * z * z + 0.001308 * z * z * z);
  z = q < 0.5 ? -z : z;
  for (let step = 0; step < 6; step++) {
    const density = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    if (density === 0) break;
    const next = z - (normalCdf(z) - q) / density;
    if (Math.abs(next - z) < 1e-14) return next;
    z = next;
  }
  return z;
}
