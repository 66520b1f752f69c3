package org.poollab.service.role;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Says what a role id may be when the path holds something else ({@code /roles/abc},
 * {@code /roles/99999999999999999999}, {@code /roles/-1}).
 */
@Order(Ordered.HIGHEST_PRECEDENCE) // ahead of Boot's generic problem-details handler
@RestControllerAdvice(assignableTypes = RoleController.class)
class InvalidRoleIdAdvice {

	@ExceptionHandler(MethodArgumentTypeMismatchException.class)
	ProblemDetail typeMismatch(MethodArgumentTypeMismatchException ex) {
		return invalidId(String.valueOf(ex.getValue())).getBody();
	}

	static ErrorResponseException invalidId(String value) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"Role id '%s' is not allowed: use a whole number from 1 to %d".formatted(value, Long.MAX_VALUE));
		problem.setTitle("Invalid role id");
		return new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
	}

}
