begin_version
3
end_version
begin_metric
0
end_metric
3
begin_variable
haystack
-1
3
none
inHands
inFeeder
end_variable
begin_variable
bucket
-1
2
none
inHands
end_variable
begin_variable
water
-1
3
inSource
inBucket
inTrough
end_variable
0
begin_state
0
0
0
end_state
begin_goal
3
0 2
1 0
2 2
end_goal
7
begin_operator
DropHaystack
0
1
0 0 1 0
1
end_operator
begin_operator
TakeHaystack
1
1 0
1
0 0 0 1
1
end_operator
begin_operator
FillHorseFeeder
0
1
0 0 1 2
1
end_operator
begin_operator
DropBucket
0
1
0 1 1 0
1
end_operator
begin_operator
PickUpBucket
1
0 0
1
0 1 0 1
1
end_operator
begin_operator
FillBucketWithWater
1
1 1
1
0 2 0 1
1
end_operator
begin_operator
FillHorseTrough
1
1 1
1
0 2 1 2
1
end_operator
0
