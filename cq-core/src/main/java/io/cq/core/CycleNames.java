package io.cq.core;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Cycle file names written and read by hand, for the one shape every {@link RollCycle} pattern has: {@code yyyyMMdd},
 * then optionally {@code -HH}, {@code -HHmm} or {@code -HHmmss}, then optionally one quoted letter ({@code 'W'}).
 * A {@code DateTimeFormatter} does the same in a few microseconds once built, but building the first one of a JVM
 * loads and generates enough code to cost milliseconds on the path to a new queue's first excerpt
 * (docs/performance.md, "Start-up"). {@link CycleCalendar} falls back to a formatter for what this does not cover
 * (years outside 0000-9999).
 */
final class CycleNames {
    private static final String DATE = "yyyyMMdd";
    private static final int DATE_DIGITS = 8;

    /** Digits after the dash: 0 (none, and no dash), 2 (HH), 4 (HHmm) or 6 (HHmmss). */
    private final int timeDigits;
    /** The quoted letter, or -1 for none. */
    private final int suffix;
    private final int length;

    private CycleNames(int timeDigits, int suffix) {
        this.timeDigits = timeDigits;
        this.suffix = suffix;
        this.length = DATE_DIGITS + (timeDigits == 0 ? 0 : 1 + timeDigits) + (suffix < 0 ? 0 : 1);
    }

    /** The names of a pattern, or null when the pattern is not of the shape this knows. */
    static CycleNames of(String pattern) {
        if (!pattern.startsWith(DATE)) {
            return null;
        }
        String rest = pattern.substring(DATE_DIGITS);
        int timeDigits = 0;
        for (String time : new String[] {"-HHmmss", "-HHmm", "-HH"}) {
            if (rest.startsWith(time)) {
                timeDigits = time.length() - 1;
                rest = rest.substring(time.length());
                break;
            }
        }
        if (rest.isEmpty()) {
            return new CycleNames(timeDigits, -1);
        }
        if (rest.length() == 3 && rest.charAt(0) == '\'' && rest.charAt(2) == '\''
                && Character.isLetter(rest.charAt(1))) {
            return new CycleNames(timeDigits, rest.charAt(1));
        }
        return null;
    }

    /** The name of the cycle that starts at this local time, or null for a year outside 0000-9999. */
    String format(LocalDate date, int secondOfDay) {
        int year = date.getYear();
        if (year < 0 || year > 9999) {
            return null;
        }
        char[] name = new char[length];
        digits(name, 0, year, 4);
        digits(name, 4, date.getMonthValue(), 2);
        digits(name, 6, date.getDayOfMonth(), 2);
        if (timeDigits > 0) {
            name[DATE_DIGITS] = '-';
            int[] fields = {secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60};
            for (int i = 0; i < timeDigits / 2; i++) {
                digits(name, DATE_DIGITS + 1 + 2 * i, fields[i], 2);
            }
        }
        if (suffix >= 0) {
            name[length - 1] = (char) suffix;
        }
        return new String(name);
    }

    /**
     * The local start a name shows (fields it lacks are zero), or null when it is not a name of this shape or not a
     * valid date and time. The caller formats the cycle it finds again and compares, which makes the round trip exact.
     */
    LocalDateTime parse(String name) {
        if (name.length() != length || (timeDigits > 0 && name.charAt(DATE_DIGITS) != '-')
                || (suffix >= 0 && name.charAt(length - 1) != suffix)) {
            return null;
        }
        int year = number(name, 0, 4);
        int month = number(name, 4, 2);
        int day = number(name, 6, 2);
        int[] time = new int[3];
        for (int i = 0; i < timeDigits / 2; i++) {
            time[i] = number(name, DATE_DIGITS + 1 + 2 * i, 2);
        }
        if (year < 0 || month < 0 || day < 0 || time[0] < 0 || time[1] < 0 || time[2] < 0) {
            return null;
        }
        try {
            return LocalDateTime.of(year, month, day, time[0], time[1], time[2]);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static void digits(char[] into, int at, int value, int count) {
        for (int i = count - 1; i >= 0; i--) {
            into[at + i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The decimal number of {@code count} ASCII digits, or -1 where one is not a digit. */
    private static int number(String text, int at, int count) {
        int value = 0;
        for (int i = at; i < at + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * {@link LocalDate#toEpochDay()} by arithmetic alone: the JDK's asks {@code Year} whether the year is a leap year,
     * and initializing {@code Year} builds a {@code DateTimeFormatter} (a few milliseconds on a new process's path to
     * its first excerpt). Days from the civil calendar, with years counted from March so that the leap day is last.
     */
    static long epochDay(LocalDate date) {
        int month = date.getMonthValue();
        long year = date.getYear() - (month <= 2 ? 1 : 0);
        long era = Math.floorDiv(year, 400);
        long yearOfEra = year - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + date.getDayOfMonth() - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }
}
