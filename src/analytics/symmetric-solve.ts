/**
 * Solving with a small symmetric positive definite matrix (a negated Hessian, an information
 * matrix) by its Cholesky factor. The matrices here have one row per model plus a few covariates,
 * so a dense factor is both simplest and fast.
 */

/** A square matrix as rows of numbers. */
export type SquareMatrix = Float64Array[];

/** The lower Cholesky factor of `matrix`, or null when it is not positive definite. */
export function choleskyFactor(matrix: SquareMatrix): SquareMatrix | null {
  const size = matrix.length;
  const lower = Array.from({ length: size }, () => new Float64Array(size));
  for (let i = 0; i < size; i++) {
    const row = lower[i] as Float64Array;
    for (let j = 0; j <= i; j++) {
      const other = lower[j] as Float64Array;
      let sum = (matrix[i] as Float64Array)[j] ?? 0;
      for (let k = 0; k < j; k++) sum -= (row[k] ?? 0) * (other[k] ?? 0);
      if (i === j) {
        if (!(sum > 0)) return null;
        row[i] = Math.sqrt(sum);
      } else row[j] = sum / (other[j] ?? 1);
    }
  }
  return lower;
}

/** x with L Lᵀ x = b, given the lower factor L. */
export function choleskySolve(lower: SquareMatrix, right: ArrayLike<number>): Float64Array {
  const size = lower.length;
  const forward = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const row = lower[i] as Float64Array;
    let sum = right[i] ?? 0;
    for (let k = 0; k < i; k++) sum -= (row[k] ?? 0) * (forward[k] ?? 0);
    forward[i] = sum / (row[i] ?? 1);
  }
  const solution = new Float64Array(size);
  for (let i = size - 1; i >= 0; i--) {
    let sum = forward[i] ?? 0;
    for (let k = i + 1; k < size; k++) sum -= ((lower[k] as Float64Array)[i] ?? 0) * (solution[k] ?? 0);
    solution[i] = sum / ((lower[i] as Float64Array)[i] ?? 1);
  }
  return solution;
}

/** The inverse of a positive definite matrix, or null when it is not positive definite. */
export function symmetricInverse(matrix: SquareMatrix): SquareMatrix | null {
  const lower = choleskyFactor(matrix);
  if (lower === null) return null;
  return matrix.map((_, column) => {
    const unit = new Float64Array(matrix.length);
    unit[column] = 1;
    return choleskySolve(lower, unit);
  });
}
