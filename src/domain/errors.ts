// Typed domain errors. The HTTP layer maps each to a status in one error handler;
// messages are safe to show to clients and name the field and the rule.

export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule: 400. Message form: `"<field>: <rule>"`. */
export class ValidationError extends DomainError {
  constructor(message: string) {
    super(message, 400);
  }
}

/** The item does not exist, or belongs to another account: 404. */
export class NotFoundError extends DomainError {
  constructor(message = 'not found') {
    super(message, 404);
  }
}

/** The server cannot take the work now, through no fault of the request: 503 with `Retry-After`. */
export class ServiceBusyError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, 503);
  }
}

/** The request is understood but not allowed for this user or instance: 403. */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super(message, 403);
  }
}

/** The request clashes with the current state (a taken name, the last owner): 409. */
export class ConflictError extends DomainError {
  constructor(message: string) {
    super(message, 409);
  }
}

/** A one-time link that was used, revoked or has expired: 410. */
export class GoneError extends DomainError {
  constructor(message: string) {
    super(message, 410);
  }
}
