-- CreateTable
CREATE TABLE "BulkActivationJob" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "transactionId" TEXT,
    "total" INTEGER NOT NULL,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),

    CONSTRAINT "BulkActivationJob_pkey" PRIMARY KEY ("id")
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

    CONSTRAINT "BulkActivationItem_pkey" PRIMARY KEY ("jobId","position")
);

-- CreateIndex
CREATE INDEX "BulkActivationJob_status_leaseUntil_idx" ON "BulkActivationJob"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "BulkActivationJob_ownerId_createdAt_idx" ON "BulkActivationJob"("ownerId", "createdAt");

-- AddForeignKey
ALTER TABLE "BulkActivationItem" ADD CONSTRAINT "BulkActivationItem_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "BulkActivationJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;
