-- CreateTable
CREATE TABLE "BulkActivationJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "transactionId" TEXT,
    "total" INTEGER NOT NULL,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME
);

-- CreateTable
CREATE TABLE "BulkActivationItem" (
    "jobId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "sim" TEXT NOT NULL,
    "input" TEXT,
    "transactionId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" TEXT,

    PRIMARY KEY ("jobId", "position"),
    CONSTRAINT "BulkActivationItem_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "BulkActivationJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "BulkActivationJob_status_leaseUntil_idx" ON "BulkActivationJob"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "BulkActivationJob_ownerId_createdAt_idx" ON "BulkActivationJob"("ownerId", "createdAt");
