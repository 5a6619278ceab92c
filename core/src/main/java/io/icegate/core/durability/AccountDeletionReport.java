package io.icegate.core.durability;

/**
 * What an account deletion did.
 *
 * @param accountId the deleted account
 * @param recordDeleted whether this call deleted the account record (false when it replayed the
 *     cleanup of an account whose record was already gone)
 * @param keysCleared descendant keys removed by this call
 * @param cleanupTransactions cleanup transactions this call committed
 */
public record AccountDeletionReport(
    String accountId, boolean recordDeleted, long keysCleared, int cleanupTransactions) {}
