package io.cq.cli;

/** Something the user named does not exist or is not what the command needs; shown as one line. */
final class UserInputException extends RuntimeException {
    UserInputException(String message) {
        super(message);
    }
}
